import { db } from "~/db.server";

/**
 * Who a stored object belongs to, read from its key (app/storage/keys.ts): an item's files live
 * under `items/{id}/`, a user's under `users/{id}/`. A signed upload link outlives nothing it was
 * made for (issue 17 item 9): before and after receiving bytes, the owner must still exist.
 */
export type KeyOwner = { kind: "item"; id: string; prefix: string } | { kind: "user"; id: string; prefix: string };

export function ownerOfKey(key: string): KeyOwner | null {
  const [top, id] = key.split("/");
  if (!id) return null;
  if (top === "items") return { kind: "item", id, prefix: `items/${id}/` };
  if (top === "users") return { kind: "user", id, prefix: `users/${id}/` };
  return null;
}

/** Whether the item or user a key belongs to still exists (keys of no known owner: true). */
export async function keyOwnerExists(key: string): Promise<boolean> {
  const owner = ownerOfKey(key);
  if (!owner) return true;
  if (owner.kind === "item") return (await db().item.count({ where: { id: owner.id } })) > 0;
  return (await db().user.count({ where: { id: owner.id } })) > 0;
}
