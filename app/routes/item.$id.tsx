import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useAuth } from "~/auth/auth-provider";
import { getPageUser } from "~/auth/require-user.server";
import { ModelViewer } from "~/components/model-viewer";
import { presentItem } from "~/domain/item-presenter";
import { getVisibleItem } from "~/domain/items.server";
import { uuidSchema } from "~/domain/schemas";
import { isAppError } from "~/domain/errors";
import { xorKeyFromString } from "~/lib/xor";
import { formatBytes } from "~/lib/upload-rules";
import { usePublicEnv } from "~/lib/use-public-env";

export async function loader({ request, params }: LoaderFunctionArgs) {
  if (!uuidSchema.safeParse(params.id).success) throw new Response("Not found", { status: 404 });
  const user = await getPageUser(request);
  try {
    const item = await getVisibleItem({ itemId: params.id!, viewerId: user?.id ?? null });
    return json({ item: presentItem(item, user?.id ?? null) });
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") throw new Response("Not found", { status: 404 });
    throw error;
  }
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `${data.item.name} — Scanroom` : "Model — Scanroom" }];

export default function ItemPage() {
  const { item } = useLoaderData<typeof loader>();
  const { getToken, ready } = useAuth();
  const [token, setToken] = useState<string | null | undefined>(undefined);
  const { modelXorKey } = usePublicEnv();

  useEffect(() => {
    if (!ready) return;
    getToken().then(setToken, () => setToken(null));
  }, [ready, getToken]);

  return (
    <section className="page item-page">
      <div className="item-viewer-frame">
        {item.model_url && token !== undefined ? (
          <ModelViewer
            source={{ url: item.model_url, token, xorKey: xorKeyFromString(modelXorKey), fileName: `model.${item.file_format ?? item.model_type}` }}
          />
        ) : item.model_url ? null : (
          <p className="empty-state">This model has no file yet ({item.status}).</p>
        )}
      </div>
      <header className="item-header">
        <h1>{item.name}</h1>
        <p className="item-meta">
          by <Link to={`/u/${item.owner.id}`}>{item.owner.display_name ?? "Anonymous"}</Link> ·{" "}
          <time dateTime={item.created_at}>{new Date(item.created_at).toLocaleDateString("en")}</time> · {item.view_count} views
          {item.file_size ? ` · ${formatBytes(item.file_size)}` : ""}
        </p>
      </header>
    </section>
  );
}
