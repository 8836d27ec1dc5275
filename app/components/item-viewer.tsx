import { useEffect, useState } from "react";
import { useAuth } from "~/auth/auth-provider";
import type { ViewerSettings } from "~/domain/viewer-settings";
import { usePublicEnv } from "~/lib/use-public-env";
import { xorKeyFromString } from "~/lib/xor";
import { ModelViewer, type ModelViewerProps } from "./model-viewer";

/**
 * The viewer with the owner's token (needed for private models); waits for the first sign-in state.
 * Opens as the item's viewer settings say (camera, background, autorotate); explicit props win.
 */
export function ItemViewer({
  item,
  background,
  autorotate,
  onViewer,
  onReady,
  onError,
  original = false,
}: {
  item: {
    model_url: string | null;
    file_format: string | null;
    model_type: string;
    /** What model_url serves (a splat's compact .sog delivery copy once made); see the item presenter. */
    delivered_format?: string | null;
    /** The file as uploaded, for its owner. */
    original_url?: string | null;
    settings?: Pick<ViewerSettings, "camera" | "background" | "autorotate">;
  };
  background?: string;
  autorotate?: boolean;
  onViewer?: ModelViewerProps["onViewer"];
  onReady?: ModelViewerProps["onReady"];
  onError?: ModelViewerProps["onError"];
  /** Show the owner's original file instead of the delivery copy (to compare them). */
  original?: boolean;
}) {
  const { getToken, ready } = useAuth();
  const [token, setToken] = useState<string | null | undefined>(undefined);
  const { modelXorKey } = usePublicEnv();
  useEffect(() => {
    if (!ready) return;
    getToken().then(setToken, () => setToken(null));
  }, [ready, getToken]);
  const url = original && item.original_url ? item.original_url : item.model_url;
  const format = original && item.original_url ? item.file_format : (item.delivered_format ?? item.file_format);
  if (!url || token === undefined) return null;
  return (
    <ModelViewer
      background={background ?? item.settings?.background ?? undefined}
      autorotate={autorotate ?? item.settings?.autorotate}
      initialCamera={item.settings?.camera}
      onViewer={onViewer}
      onReady={onReady}
      onError={onError}
      source={{ url, token, xorKey: xorKeyFromString(modelXorKey), fileName: `model.${format ?? item.model_type}` }}
    />
  );
}

