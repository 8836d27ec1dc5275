import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { ItemStatus } from "~/components/item-status";
import { AnnotatedViewer } from "~/components/annotated-viewer";
import { EarlySplatsScript } from "~/components/early-splats-script";
import { listAnnotations } from "~/domain/annotations.server";
import type { RouteHandle } from "~/lib/route-handle";
import { loadVisibleItem } from "~/pages/visible-item.server";
import { loaderCacheHeaders } from "~/lib/public-page-cache";
import { hasSomethingToView } from "~/domain/item-presenter";
import { isSplatFormat } from "~/formats/model-format";
import { earlyModelLinks, startViewerEarly, viewerPreloadLinks } from "~/pages/viewer-preload-links";
import { publicEnvFromMatches } from "~/components/use-public-env";
import { viewerPreloads } from "~/pages/viewer-preloads.server";

// /viewer/{id}: the model full screen, without the site's header and footer (SPEC §2 "no layout").
export const handle: RouteHandle = { layout: false };

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { item, headers, signedOut } = await loadVisibleItem(request, params.id, { countView: true, context });
  // The viewer's scripts (and for a splat Spark's, with its WASM) are named in the HTML: fetched with the page (issue 20).
  const preloads = hasSomethingToView(item)
    ? viewerPreloads({ splat: isSplatFormat(item.delivered_format ?? item.file_format), coarse: !!item.model_coarse_url })
    : null;
  return json({ item, annotations: await listAnnotations({ itemId: item.id, signedOutReader: signedOut }), preloads }, { headers });
}

export const headers = loaderCacheHeaders;

export const meta: MetaFunction<typeof loader> = ({ data, matches, location }) => [
  { title: data ? `${data.item.name} — Scanroom viewer` : "Viewer — Scanroom" },
  ...(data && data.item.visibility !== "public" ? [{ name: "robots", content: "noindex" }] : []),
  // A public or unlisted model starts downloading with the page and a splat is decoded before hydration, as on
  // the embed (decision 035); not the owner's original (?original=1), which needs their token.
  ...(data && !isOriginalView(new URLSearchParams(location.search)) ? earlyModelLinks(data.item, publicEnvFromMatches(matches)?.modelXorKey ?? "") : []),
  ...viewerPreloadLinks(data?.preloads),
];

/** ?original=1: the owner compares the delivery copy (e.g. .sog) with the file as uploaded. */
function isOriginalView(search: URLSearchParams): boolean {
  return search.get("original") === "1";
}

startViewerEarly();

export default function FullScreenViewer() {
  const { item, annotations, preloads } = useLoaderData<typeof loader>();
  const [search] = useSearchParams();
  const hasDeliveryCopy = !!item.original_url && item.delivered_format !== item.file_format;
  const original = hasDeliveryCopy && isOriginalView(search);
  return (
    <div className="fullscreen-viewer">
      <h1 className="sr-only">{item.name}</h1>
      <EarlySplatsScript earlySplats={preloads?.earlySplats} />
      {hasSomethingToView(item) ? (
        <AnnotatedViewer key={original ? "original" : "delivered"} item={item} annotations={annotations} original={original} />
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
        {hasDeliveryCopy ? (
          <Link
            to={original ? `/viewer/${item.id}` : `/viewer/${item.id}?original=1`}
            className="fullscreen-variant"
            data-testid="viewer-variant"
            title="Visitors see a compact copy made for fast viewing; you can compare it with the file you uploaded."
          >
            {original ? `Showing your original .${item.file_format} — show the .${item.delivered_format} visitors get` : `Showing the .${item.delivered_format} visitors get — show your original .${item.file_format}`}
          </Link>
        ) : null}
      </div>
    </div>
  );
}
