import type { MetaDescriptor } from "@remix-run/node";

/**
 * `<link>`s for what viewerPreloads() (viewer-preloads.server.ts) named: modulepreload for scripts, a CORS
 * fetch preload for the WASM — the mode Spark's own fetch of it uses, so that fetch is served from the preload.
 */
export function viewerPreloadLinks(preloads: { modules: string[]; fetches: string[] } | null | undefined): MetaDescriptor[] {
  if (!preloads) return [];
  return [
    // data-viewer: startViewerEarly() starts the viewer on pages that named it.
    ...preloads.modules.map((href) => ({ tagName: "link", rel: "modulepreload", href, "data-viewer": "" }) as const),
    // data-splat: startViewerEarly() then starts Spark at once too.
    ...preloads.fetches.map((href) => ({ tagName: "link", rel: "preload", href, as: "fetch", crossOrigin: "anonymous", "data-splat": "" }) as const),
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
  const viewer = import("~/viewer");
  if (document.querySelector("link[data-splat]")) viewer.then((module) => module.preloadSplatRenderer()).catch(() => undefined);
  else viewer.catch(() => undefined);
}
