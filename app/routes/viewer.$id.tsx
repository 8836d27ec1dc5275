import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ItemStatus } from "~/components/item-status";
import { ItemViewer } from "~/components/item-viewer";
import type { RouteHandle } from "~/lib/route-handle";
import { loadVisibleItem } from "~/lib/visible-item.server";

// /viewer/{id}: the model full screen, without the site's header and footer (SPEC §2 "no layout").
export const handle: RouteHandle = { layout: false };

export async function loader({ request, params }: LoaderFunctionArgs) {
  return json({ item: await loadVisibleItem(request, params.id, { countView: true }) });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.item.name} — Scanroom viewer` : "Viewer — Scanroom" },
  ...(data && data.item.visibility !== "public" ? [{ name: "robots", content: "noindex" }] : []),
];

export default function FullScreenViewer() {
  const { item } = useLoaderData<typeof loader>();
  return (
    <div className="fullscreen-viewer">
      <h1 className="sr-only">{item.name}</h1>
      {item.model_url ? (
        <ItemViewer item={item} />
      ) : (
        <div className="fullscreen-empty">
          <ItemStatus status={item.status} detail={item.status_detail} progress={item.progress} />
        </div>
      )}
      <div className="fullscreen-bar">
        <Link to={`/item/${item.id}`} className="fullscreen-back" aria-label={`Close full screen and return to ${item.name}`}>
          <i className="pi pi-times" aria-hidden="true" />
        </Link>
        <span className="fullscreen-title">
          {item.name} <small>by {item.owner.display_name ?? "Anonymous"}</small>
        </span>
      </div>
    </div>
  );
}
