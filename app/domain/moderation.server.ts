import { db, type Item, type Prisma } from "~/db.server";
import { storefrontsShowingItemChanged } from "./storefront-sync.server";
import { audited } from "./audit.server";
import { AppError, notFound } from "~/lib/errors";
import { presentItem } from "./item-presenter";
import { notify } from "./notifications.server";

/**
 * Moderation of public items. Unpublishing hides an item from everyone but its owner (items.server.ts
 * `visibleTo` and the public lists check `unpublishedAt`) without touching the owner's visibility
 * setting; the owner sees the reason on the item page and in a notification. Restoring undoes it.
 * Every action is audited, and storefronts showing the item follow once it has committed.
 */
export const moderatedOwnerSelect = { select: { id: true, email: true, displayName: true, disabledAt: true } } as const;

type ModeratedItem = Item & { owner: { id: string; email: string | null; displayName: string | null; disabledAt: Date | null } };

export function presentModeratedItem(item: ModeratedItem) {
  return {
    ...presentItem(item, null),
    unpublished_at: item.unpublishedAt?.toISOString() ?? null,
    moderation_reason: item.moderationReason,
    owner: {
      id: item.owner.id,
      email: item.owner.email,
      display_name: item.owner.displayName,
      disabled: item.owner.disabledAt !== null,
    },
  };
}
export type ModeratedItemDto = ReturnType<typeof presentModeratedItem>;

function moderationState(item: Pick<Item, "unpublishedAt" | "moderationReason">) {
  return { unpublished_at: item.unpublishedAt?.toISOString() ?? null, moderation_reason: item.moderationReason };
}

/** The newest public items, published or not (so unpublished ones can be restored). */
export async function listPublicItemsForModeration({ state, limit }: { state: "all" | "published" | "unpublished"; limit: number }) {
  const where: Prisma.ItemWhereInput = { visibility: "public" };
  if (state === "published") where.unpublishedAt = null;
  if (state === "unpublished") where.unpublishedAt = { not: null };
  const rows = await db().item.findMany({ where, include: { owner: moderatedOwnerSelect }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit });
  return rows.map(presentModeratedItem);
}

/** Hides a public (or unlisted) item from everyone but its owner, with a reason the owner sees. */
export async function unpublishItem({ itemId, reason, actorId }: { itemId: string; reason: string; actorId: string }) {
  const result = await audited(actorId, async (tx) => {
    const before = await tx.item.findFirst({ where: { id: itemId, visibility: { in: ["public", "unlisted"] } } });
    if (!before) throw notFound("Public item");
    if (before.unpublishedAt) throw new AppError("conflict", "This item is already unpublished.");
    const after = await tx.item.update({ where: { id: itemId }, data: { unpublishedAt: new Date(), moderationReason: reason }, include: { owner: moderatedOwnerSelect } });
    return {
      result: presentModeratedItem(after),
      audit: { action: "item.unpublish", targetType: "item", targetId: itemId, before: moderationState(before), after: moderationState(after) },
    };
  });
  await storefrontsShowingItemChanged(itemId);
  await notify({
    userId: result.owner.id,
    kind: "moderation",
    title: `"${result.name}" was unpublished by a moderator`,
    body: reason,
    link: `/item/${itemId}`,
  });
  return result;
}

/** Publishes an unpublished item again (its owner's visibility setting applies as before). */
export async function restoreItem({ itemId, actorId }: { itemId: string; actorId: string }) {
  const result = await audited(actorId, async (tx) => {
    const before = await tx.item.findUnique({ where: { id: itemId } });
    if (!before) throw notFound("Item");
    if (!before.unpublishedAt) throw new AppError("conflict", "This item is not unpublished.");
    const after = await tx.item.update({ where: { id: itemId }, data: { unpublishedAt: null, moderationReason: null }, include: { owner: moderatedOwnerSelect } });
    return {
      result: presentModeratedItem(after),
      audit: { action: "item.restore", targetType: "item", targetId: itemId, before: moderationState(before), after: moderationState(after) },
    };
  });
  await storefrontsShowingItemChanged(itemId);
  await notify({ userId: result.owner.id, kind: "moderation", title: `"${result.name}" is published again`, link: `/item/${itemId}` });
  return result;
}
