/**
 * The header in which a page names the item whose view each copy of it counts (the model page); the shared
 * page cache (app/lib/shared-page-cache.server.ts) reads it, counts it for every copy, and never sends it.
 */
export const VIEW_HEADER = "x-scanroom-counts-view";
