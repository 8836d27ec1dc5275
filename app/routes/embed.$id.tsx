import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ItemViewer } from "~/components/item-viewer";
import type { RouteHandle } from "~/lib/route-handle";
import { usePublicEnv } from "~/lib/use-public-env";
import { loadVisibleItem } from "~/lib/visible-item.server";

// /embed/{id}: framable by any site (entry.server sends no frame-ancestors for /embed/), no layout.
// Private models are 404 here as everywhere; the watermark follows the item's embed setting.
export const handle: RouteHandle = { layout: false };

export async function loader({ request, params }: LoaderFunctionArgs) {
  return json({ item: await loadVisibleItem(request, params.id, { countView: false }) });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.item.name} — Scanroom` : "Scanroom" },
  { name: "robots", content: "noindex" },
];

export default function Embed() {
  const { item } = useLoaderData<typeof loader>();
  const { appUrl } = usePublicEnv();
  return (
    <div className="embed-frame">
      <h1 className="sr-only">{item.name}</h1>
      {item.model_url ? <ItemViewer item={item} /> : <p className="embed-empty">This model is not ready yet.</p>}
      {item.is_watermark_enabled ? (
        <a className="embed-watermark" data-testid="embed-watermark" href={new URL(`/item/${item.id}`, appUrl).toString()} target="_blank" rel="noopener noreferrer">
          <img src="/favicon.svg" alt="" width={16} height={16} /> Made with Scanroom
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
      ) : null}
    </div>
  );
}
