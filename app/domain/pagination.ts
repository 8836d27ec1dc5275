import { AppError } from "~/lib/errors";

/**
 * Keyset cursors for item lists (issue 17 item 5): base64url JSON of the last row's sort value and id.
 * One decoder checks a cursor against the sort it pages through, so a well-formed but wrong cursor is a
 * clear 400, never a database error.
 */
export type ItemSort = "newest" | "most_viewed" | "featured";
export interface ItemCursor {
  v: string | number; // createdAt ISO (newest), viewCount (most_viewed), featuredAt or createdAt ISO (featured)
  i: string; // item id
  /** featured only: still among the featured models ("f", v = featuredAt) or past them ("n", v = createdAt). */
  p?: "f" | "n";
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

export function encodeItemCursor(cursor: ItemCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

/** The cursor's values, or null when it is not one this sort made. */
export function readItemCursor(raw: string, sort: ItemSort): ItemCursor | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== "object") return null;
  const { v, i, p } = parsed as Record<string, unknown>;
  if (typeof i !== "string" || !UUID.test(i)) return null;
  if (sort === "most_viewed") {
    return typeof v === "number" && Number.isSafeInteger(v) && v >= 0 && p === undefined ? { v, i } : null;
  }
  if (typeof v !== "string" || !ISO.test(v) || Number.isNaN(new Date(v).getTime())) return null;
  if (sort === "featured") return p === "f" || p === "n" ? { v, i, p } : null;
  return p === undefined ? { v, i } : null;
}

export function decodeItemCursor(raw: string | undefined, sort: ItemSort): ItemCursor | null {
  if (!raw) return null;
  const cursor = readItemCursor(raw, sort);
  if (!cursor) throw new AppError("invalid_input", "cursor is not one this list gave out; start from the first page.");
  return cursor;
}

/** For page loaders: a cursor this sort did not make is a 400 page, not a server error. */
export function assertPageCursor(raw: string | null | undefined, sort: ItemSort): void {
  if (raw && !readItemCursor(raw, sort)) throw new Response("This page link is not valid; start from the first page.", { status: 400 });
}
