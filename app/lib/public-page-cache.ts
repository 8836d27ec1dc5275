import type { HeadersFunction } from "@remix-run/node";
import { VIEW_HEADER } from "./shared-page-cache-header";

/**
 * How long a shared cache (ours, app/lib/shared-page-cache.server.ts, or a CDN) may keep a page that signed-out
 * visitors see: the front door and Explore, public and unlisted model pages, plain embeds, oEmbed answers
 * (docs/decisions/045-shared-page-cache.md). A change shows to signed-out visitors within this time; signed-in
 * people always get the page as it is.
 */
export const SHARED_PAGE_SECONDS = 10;

/** The Cache-Control of such a page: shared for a signed-out visitor, never shared for anyone signed in. */
export function pageCacheControl({ signedIn }: { signedIn: boolean }): string {
  return signedIn ? "private, no-cache" : `public, max-age=0, s-maxage=${SHARED_PAGE_SECONDS}`;
}

/** The headers of a page whose copies each count a view of `itemId` (signed-out visitors' model pages). */
export function countedViewHeaders(itemId: string): Record<string, string> {
  return { "Cache-Control": pageCacheControl({ signedIn: false }), [VIEW_HEADER]: itemId };
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
