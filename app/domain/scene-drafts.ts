import type { Prisma } from "~/db.server";
import type { ListItemsQuery } from "./schemas";

/**
 * Draft scenes (issue 35 item 8, docs/decisions/046-draft-scenes.md): a scene made in the Builder is a draft
 * until its first save. A draft is its owner's alone and stays off the dashboard and every public list; the
 * Builder's "My scenes" lists it.
 */

/**
 * The status condition of an item list (GET /v1/items, the dashboard, Explore, profiles): others' lists show
 * ready items only, the owner's everything but drafts; `status=draft` lists the owner's drafts and nobody
 * else's. Null: the list is empty.
 */
export function listedStatusWhere({ status, own }: { status: ListItemsQuery["status"]; own: boolean }): Prisma.ItemWhereInput["status"] | null {
  if (status === "draft") return own ? "draft" : null;
  if (status) return status;
  return own ? { not: "draft" } : "ready";
}
