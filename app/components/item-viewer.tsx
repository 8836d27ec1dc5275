import { useEffect, useState } from "react";
import { useAuth } from "~/auth/auth-provider";
import { usePublicEnv } from "~/lib/use-public-env";
import { xorKeyFromString } from "~/lib/xor";
import { ModelViewer } from "./model-viewer";

/** The viewer with the owner's token (needed for private models); waits for the first sign-in state. */
export function ItemViewer({
  item,
  background,
  autorotate,
}: {
  item: { model_url: string | null; file_format: string | null; model_type: string };
  background?: string;
  autorotate?: boolean;
}) {
  const { getToken, ready } = useAuth();
  const [token, setToken] = useState<string | null | undefined>(undefined);
  const { modelXorKey } = usePublicEnv();
  useEffect(() => {
    if (!ready) return;
    getToken().then(setToken, () => setToken(null));
  }, [ready, getToken]);
  if (!item.model_url || token === undefined) return null;
  return (
    <ModelViewer
      background={background}
      autorotate={autorotate}
      source={{ url: item.model_url, token, xorKey: xorKeyFromString(modelXorKey), fileName: `model.${item.file_format ?? item.model_type}` }}
    />
  );
}

