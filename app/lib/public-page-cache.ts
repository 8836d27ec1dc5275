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
 * The header in which a page names what it shows — 'item:<id>' for the model and each part of a scene, 'user:<id>'
 * for its owner — so that the shared page cache may keep it until the database says one of them changed
 * (docs/decisions/057-shared-pages-kept-until-changed.md). Read by the cache, never sent.
 */
export const SHOWS_HEADER = "x-scanroom-page-shows";

/** What a page of this item (as presented) shows, for SHOWS_HEADER: the item, its owner, and a scene's parts. */
export function itemPageShows(item: { id: string; owner: { id: string }; scene_parts?: ReadonlyArray<{ item_id: string }> | null }): string[] {
  return [`item:${item.id}`, `user:${item.owner.id}`, ...(item.scene_parts ?? []).map((part) => `item:${part.item_id}`)];
}

/**
 * A page's headers: `shared` for what every signed-out visitor sees alike, never for anyone signed in (nor for a
 * page that counts something per load, like a registered embed); `countsViewOf` when each copy counts a view;
 * `shows` (itemPageShows) when the page shows one model and may be kept until it changes.
 */
export function pageHeaders({ shared, countsViewOf, shows }: { shared: boolean; countsViewOf?: string; shows?: string[] }): Record<string, string> {
  if (!shared) return { "Cache-Control": "private, no-cache" };
  return {
    "Cache-Control": `public, max-age=0, s-maxage=${SHARED_PAGE_SECONDS}`,
    ...(countsViewOf ? { [VIEW_HEADER]: countsViewOf } : {}),
    ...(shows?.length ? { [SHOWS_HEADER]: shows.join(" ") } : {}),
  };
}

/** A route's `headers`: the document gets its loader's Cache-Control (and the view its copies count, and what it shows). */
export const loaderCacheHeaders: HeadersFunction = ({ loaderHeaders }) => {
  const headers = new Headers();
  for (const name of ["Cache-Control", VIEW_HEADER, SHOWS_HEADER]) {
    const value = loaderHeaders.get(name);
    if (value) headers.set(name, value);
  }
  return headers;
};
