import type { HeadersFunction } from "@remix-run/node";

/**
 * How long a shared cache (ours, app/lib/shared-page-cache.server.ts, or a CDN) may keep a page that signed-out
 * visitors see: the front door and Explore, public and unlisted model pages, plain embeds, oEmbed answers
 * (docs/decisions/045-shared-page-cache.md). A change shows to signed-out visitors within this time; signed-in
 * people always get the page as it is.
 */
export const SHARED_PAGE_SECONDS = 10;

/**
 * The header in which a page names the item whose view each copy of it counts (the model page); the shared page
 * cache reads it, counts a view for every copy it gives out, and never sends it.
 */
export const VIEW_HEADER = "x-scanroom-counts-view";

/**
 * A page's headers: `shared` for what every signed-out visitor sees alike, never for anyone signed in (nor for a
 * page that counts something per load, like a registered embed); `countsViewOf` when each copy counts a view.
 */
export function pageHeaders({ shared, countsViewOf }: { shared: boolean; countsViewOf?: string }): Record<string, string> {
  if (!shared) return { "Cache-Control": "private, no-cache" };
  return { "Cache-Control": `public, max-age=0, s-maxage=${SHARED_PAGE_SECONDS}`, ...(countsViewOf ? { [VIEW_HEADER]: countsViewOf } : {}) };
}

/** A route's `headers`: the document gets its loader's Cache-Control (and the view its copies count). */
export const loaderCacheHeaders: HeadersFunction = ({ loaderHeaders }) => {
  const headers = new Headers();
  for (const name of ["Cache-Control", VIEW_HEADER]) {
    const value = loaderHeaders.get(name);
    if (value) headers.set(name, value);
  }
  return headers;
};
