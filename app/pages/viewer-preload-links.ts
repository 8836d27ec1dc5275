import type { MetaDescriptor } from "@remix-run/node";
import { startEarlyModelDownload } from "~/viewer/download";
import { modelDownloadNeedsToken } from "~/domain/item-presenter";
import { isSplatFormat } from "~/formats/model-format";
import { xorKeyFromString } from "~/lib/xor";
import { earlySplatsShown } from "~/viewer/early-splats/events";

/**
 * `<link>`s for what viewerPreloads() (viewer-preloads.server.ts) named: modulepreload for scripts, a CORS
 * fetch preload for the WASM — the mode Spark's own fetch of it uses, so that fetch is served from the preload.
 */
export function viewerPreloadLinks(preloads: { modules: string[]; fetches: string[]; earlySplats?: string[] } | null | undefined): MetaDescriptor[] {
  if (!preloads) return [];
  return [
    // The early splats first: the page's script tag runs them (EarlySplatsScript), before everything below.
    ...(preloads.earlySplats ?? []).map((href) => ({ tagName: "link", rel: "modulepreload", href, fetchpriority: "high" }) as const),
    // data-viewer: startViewerEarly() starts the viewer on pages that named it.
    ...preloads.modules.map((href) => ({ tagName: "link", rel: "modulepreload", href, "data-viewer": "" }) as const),
    // data-splat: startViewerEarly() then starts Spark at once too.
    ...preloads.fetches.map((href) => ({ tagName: "link", rel: "preload", href, as: "fetch", crossOrigin: "anonymous", "data-splat": "" }) as const),
  ];
}

/**
 * The `<link>` that starts a page's model download with its HTML, in the mode (CORS, no credentials) of the
 * viewer's own fetch, which is then served from it. `data-model` with the site's XOR key: startViewerEarly()
 * reads that download before hydration and, for a splat (`data-splat`), decodes it (decision 035). The
 * model's coarse level (`data-model-coarse`) is read and decoded the same way, first.
 */
export function modelPreloadLink({
  href,
  splat,
  xorKey,
  coarse = false,
  priority,
}: {
  href: string;
  splat: boolean;
  xorKey: string;
  coarse?: boolean;
  /** The browser's fetch priority; unset leaves its default. */
  priority?: "high" | "low";
}): MetaDescriptor {
  return {
    tagName: "link",
    rel: "preload",
    href,
    as: "fetch",
    crossOrigin: "anonymous",
    [coarse ? "data-model-coarse" : "data-model"]: "",
    "data-xor-key": xorKey,
    ...(splat ? { "data-splat": "" } : {}),
    // Lower case: React 18 passes it through as the HTML attribute.
    ...(priority ? { fetchpriority: priority } : {}),
  };
}

/** What a page's viewer shows, as far as the early model download needs to know. */
export interface EarlyModelItem {
  model_url: string | null;
  /** The coarse level of model_url's splat (item presenter), downloaded and shown first. */
  model_coarse_url?: string | null;
  file_format?: string | null;
  delivered_format?: string | null;
  visibility?: string | null;
  scene_parts?: readonly unknown[] | null;
}

/**
 * The model preloads for a page whose viewer will download `item.model_url` without a token (ItemViewer: public
 * and unlisted models) — its coarse level first when it has one — or nothing: a private model needs the
 * owner's token, which the HTML cannot carry, and a scene downloads its parts. Only such downloads can be
 * adopted by the viewer (takeEarlyModelDownload).
 */
export function earlyModelLinks(item: EarlyModelItem | null | undefined, xorKey: string): MetaDescriptor[] {
  if (!item?.model_url || (item.scene_parts?.length ?? 0) > 0) return [];
  if (modelDownloadNeedsToken(item)) return [];
  const splat = isSplatFormat(item.delivered_format ?? item.file_format);
  // The coarse level is what the early splats draw first (decision 038): it goes ahead of the model, whose
  // decode waits for the viewer's scripts anyway.
  if (!splat || !item.model_coarse_url) return [modelPreloadLink({ href: item.model_url, splat, xorKey })];
  return [
    modelPreloadLink({ href: item.model_coarse_url, splat, xorKey, coarse: true, priority: "high" }),
    modelPreloadLink({ href: item.model_url, splat, xorKey, priority: "low" }),
  ];
}

/**
 * Called by a page's route module as it runs, before hydration: starts evaluating the viewer bundle
 * (three.js, our viewer) instead of in ModelViewer's effect after it (the effect's own import() then finds
 * it under way); when the HTML marked a splat (`link[data-splat]`), Spark too, instead of after the model's
 * first bytes have told the viewer the format.
 */
export function startViewerEarly(): void {
  // Only where the page will show a model (not for an unavailable embed or a scan still processing).
  if (typeof document === "undefined" || !document.querySelector("link[data-viewer]")) return;
  const viewer = import("~/viewer/index");
  if (!document.querySelector("link[data-splat]")) {
    viewer.catch(() => undefined);
    return;
  }
  // A splat named by the page (link[data-model][data-splat], the embed): its download (served from the
  // preload) is read from now on and Spark decodes it as soon as both are in, while React hydrates; the
  // viewer adopts both (takeEarlyModelDownload, early-decode.ts; decision 035). Its coarse level
  // (link[data-model-coarse]) likewise, decoded first: it is what the viewer can show soonest.
  const model = document.querySelector<HTMLLinkElement>("link[data-model][data-splat]");
  const coarse = document.querySelector<HTMLLinkElement>("link[data-model-coarse][data-splat]");
  // data-xor-key: the site's public model key (SPEC §7), with which ItemViewer will ask for the same bytes.
  const startEarly = (link: HTMLLinkElement | null) => (link ? startEarlyModelDownload(link.href, xorKeyFromString(link.dataset.xorKey ?? "")) : null);
  const coarseDownload = model ? startEarly(coarse) : null;
  const download = startEarly(model);
  // The early splats (decision 038) normally run from the page's own script tag, long before this; importing
  // them here too makes them a chunk of their own in the build and starts them where no tag did (one instance).
  if (coarse) import("~/viewer/early-splats/index").catch(() => undefined);
  viewer
    .then((module) => {
      module.preloadSplatRenderer().catch(() => undefined);
      // With the early splats on screen the coarse level is shown already: Spark goes straight to the model.
      const coarseToDecode = earlySplatsShown() ? null : coarseDownload;
      if (coarseToDecode) module.decodeEarly(coarseToDecode);
      if (download) module.decodeEarly(download, { after: coarseToDecode });
    })
    .catch(() => undefined);
}
