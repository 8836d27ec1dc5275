import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { itemPageShows, loaderCacheHeaders, pageHeaders } from "~/lib/public-page-cache";
import { useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { AnnotatedViewer } from "~/components/annotated-viewer";
import { EarlySplatsScript } from "~/components/early-splats-script";
import { ItemViewer } from "~/components/item-viewer";
import { postToHost, useEmbedHostApi } from "~/components/use-embed-host-api";
import { uuidSchema } from "~/domain/schemas";
import { getEmbedView, type EmbedView } from "~/domain/viewer-config.server";
import { embedQuery, parseEmbedOptions } from "~/lib/embed-options";
import { isSplatFormat } from "~/formats/model-format";
import type { RouteHandle } from "~/lib/route-handle";
import { appUrlFromMatches, itemSocialMeta } from "~/pages/social-meta";
import { earlyModelLinks, startViewerEarly, viewerPreloadLinks } from "~/pages/viewer-preload-links";
import { viewerPreloads } from "~/pages/viewer-preloads.server";
import { backgroundCss } from "~/viewer/background";
import { publicEnvFromMatches, usePublicEnv } from "~/components/use-public-env";

// /embed/{id}: framable by any site (entry.server: frame-ancestors *), no layout. Shows what any visitor may
// see (public and unlisted models) with ?autorotate=&annotations=&background= over the item's settings, the
// watermark unless its owner's plan removed it, the poster when a registered embed is no longer covered, and a
// plain message — never a broken frame — for a private or unknown model. Drivable by postMessage (docs/embed-api.md).
// No Firebase session either: an embed shows public and unlisted models, which need no token (issue 20).
// Nor PrimeReact's theme: the embed shows no PrimeReact component (its style recalculation held the first frame).
export const handle: RouteHandle = { layout: false, session: false, primeTheme: false };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const options = parseEmbedOptions(new URL(request.url).searchParams);
  const view: EmbedView = uuidSchema.safeParse(params.id).success
    ? await getEmbedView({ itemId: params.id!, embedId: options.embedId })
    : { state: "unavailable" };
  // The viewer's scripts (and for a splat Spark's, with its WASM) are named in the HTML: fetched with the page.
  const preloads =
    view.state === "live" ? viewerPreloads({ splat: isSplatFormat(view.item.delivered_format ?? view.item.file_format), coarse: !!view.item.model_coarse_url }) : null;
  // A plain embed is the same for every visitor: shared for a few seconds. One naming a registered embed counts its load.
  return json({ view, options, preloads }, { status: view.state === "unavailable" ? 404 : 200, headers: pageHeaders({ shared: !options.embedId, shows: view.state === "unavailable" ? undefined : itemPageShows(view.item) }) });
}

export const headers = loaderCacheHeaders;

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const appUrl = appUrlFromMatches(matches);
  const item = data && data.view.state !== "unavailable" ? data.view.item : null;
  const live = data && data.view.state === "live" ? data.view.item : null;
  return [
    { title: item ? `${item.name} — Scanroom` : "Model not available — Scanroom" },
    { name: "robots", content: "noindex" },
    ...(item && appUrl ? itemSocialMeta(item, appUrl) : []),
    // The model request starts with the page, not after the scripts have run and React has hydrated (issue 20),
    // and is read and (a splat) decoded before hydration; the viewer adopts both (decision 035).
    ...earlyModelLinks(live, publicEnvFromMatches(matches)?.modelXorKey ?? ""),
    ...viewerPreloadLinks(data?.preloads),
  ];
};

startViewerEarly();

const UNAVAILABLE = "This model is private or no longer available.";
const NOT_READY = "This model is not ready yet.";

export default function Embed() {
  const { view, options, preloads } = useLoaderData<typeof loader>();
  const { appUrl } = usePublicEnv();
  const item = view.state === "unavailable" ? null : view.item;
  const live = view.state === "live" ? view : null;
  const api = useEmbedHostApi({
    itemId: live ? live.item.id : null,
    tour: live ? live.annotations : [],
    // Another model in this frame, with the same display options (a registered embed belongs to one model). A
    // document load, not a client navigation: Remix's route discovery reads sessionStorage, which a cross-site
    // frame with third-party storage blocked may not touch (docs/decisions/007).
    onLoad: (itemId) => window.location.replace(`/embed/${itemId}${embedQuery({ ...parseEmbedOptions(new URLSearchParams(window.location.search)), embedId: null })}`),
  });

  useEffect(() => {
    if (view.state === "unavailable") postToHost({ type: "error", itemId: null, message: UNAVAILABLE });
    if (view.state === "poster") {
      const message = view.reason === "not_ready" ? NOT_READY : "This embed is no longer active; showing the model's poster.";
      postToHost({ type: "error", itemId: view.item.id, message });
    }
  }, [view]);

  const background = options.background ?? item?.settings.background ?? undefined;
  const pageUrl = item ? new URL(`/item/${item.id}`, appUrl).toString() : new URL("/", appUrl).toString();

  return (
    <div className="embed-frame" style={background ? { background: backgroundCss(background) } : undefined} data-embed-state={view.state}>
      <h1 className="sr-only">{item ? item.name : "Model not available"}</h1>
      <EarlySplatsScript earlySplats={preloads?.earlySplats} />
      {live ? (
        <div className="embed-stage" {...api.pointerHandlers} data-annotations={options.annotations ? "shown" : "hidden"}>
          {options.annotations && live.annotations.length > 0 ? (
            <AnnotatedViewer
              item={live.item}
              annotations={live.annotations}
              background={background}
              autorotate={options.autorotate ?? undefined}
              onViewer={api.onViewer}
              onReady={api.onReady}
              onError={api.onError}
            />
          ) : (
            <ItemViewer
              item={live.item}
              background={background}
              autorotate={options.autorotate ?? undefined}
              onViewer={api.onViewer}
              onReady={api.onReady}
              onError={api.onError}
            />
          )}
        </div>
      ) : null}
      {view.state === "poster" ? (
        <div className="embed-poster" data-testid="embed-poster">
          {view.item.thumbnail_url ? <img src={view.item.thumbnail_url} alt={view.item.name} /> : null}
          {view.reason === "not_ready" ? <p className="embed-message">{NOT_READY}</p> : null}
          <a className="embed-open" href={pageUrl} target="_blank" rel="noopener noreferrer">
            {`View ${view.item.name} in 3D on Scanroom`}
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        </div>
      ) : null}
      {view.state === "unavailable" ? (
        <div className="embed-unavailable" data-testid="embed-unavailable">
          <p className="embed-message">{UNAVAILABLE}</p>
          <a className="embed-open" href={pageUrl} target="_blank" rel="noopener noreferrer">
            Explore models on Scanroom<span className="sr-only"> (opens in a new tab)</span>
          </a>
        </div>
      ) : null}
      {api.tourStep ? (
        <p className="embed-tour-caption" aria-live="polite" data-testid="embed-tour-caption">
          {api.tourStep.title}
        </p>
      ) : null}
      {live?.watermark ? (
        <a className="embed-watermark" data-testid="embed-watermark" href={pageUrl} target="_blank" rel="noopener noreferrer">
          <img src="/favicon.svg" alt="" width={16} height={16} /> Made with Scanroom
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
      ) : null}
    </div>
  );
}
