import type { Item } from "~/db.server";
import { AppError, notFound } from "~/lib/errors";
import { audited } from "./audit.server";
import { listItems } from "./items.server";
import { moderatedOwnerSelect, presentModeratedItem } from "./moderation.server";
import { notify } from "./notifications.server";
import { listItemsQuerySchema } from "./schemas";

/**
 * Featured models (issue 35 item 5; docs/decisions/049-featured-models.md): admins pick the models the site
 * shows first — Explore's default sort and the front door — instead of whatever was made public last. Each
 * choice is audit-logged and its owner is told. Only a model everyone may see can be featured; one that later
 * stops being public simply drops out of the lists (they only ever show public models) and returns with it.
 */

/** Whether everyone may see it now: public, ready, not unpublished, its owner not disabled. */
const SHOWN_TO_EVERYONE = { visibility: "public", status: "ready", unpublishedAt: null, owner: { disabledAt: null } } as const;

const featureState = (item: Pick<Item, "featuredAt">) => ({ featured_at: item.featuredAt?.toISOString() ?? null });

export async function featureItem({ itemId, actorId }: { itemId: string; actorId: string }) {
  const result = await audited(actorId, async (tx) => {
    const before = await tx.item.findUnique({ where: { id: itemId } });
    if (!before) throw notFound("Item");
    if (before.featuredAt) throw new AppError("conflict", "This model is already featured.");
    const shown = await tx.item.count({ where: { id: itemId, ...SHOWN_TO_EVERYONE } });
    if (shown === 0) throw new AppError("conflict", "Only a public, ready model that is not unpublished can be featured.");
    const after = await tx.item.update({ where: { id: itemId }, data: { featuredAt: new Date() }, include: { owner: moderatedOwnerSelect } });
    return {
      result: presentModeratedItem(after),
      audit: { action: "item.feature", targetType: "item", targetId: itemId, before: featureState(before), after: featureState(after) },
    };
  });
  await notify({
    userId: result.owner.id,
    kind: "featured",
    title: `"${result.name}" is featured on Scanroom`,
    body: "It is shown first on Explore and on the front page.",
    link: `/item/${itemId}`,
  });
  return result;
}

export async function unfeatureItem({ itemId, actorId }: { itemId: string; actorId: string }) {
  return audited(actorId, async (tx) => {
    const before = await tx.item.findUnique({ where: { id: itemId } });
    if (!before) throw notFound("Item");
    if (!before.featuredAt) throw new AppError("conflict", "This model is not featured.");
    const after = await tx.item.update({ where: { id: itemId }, data: { featuredAt: null }, include: { owner: moderatedOwnerSelect } });
    return {
      result: presentModeratedItem(after),
      audit: { action: "item.unfeature", targetType: "item", targetId: itemId, before: featureState(before), after: featureState(after) },
    };
  });
}

/** The front door's models: the featured ones first (most recently featured first), then the most viewed. */
export async function frontDoorModels(count: number) {
  const publicList = (sort: "featured" | "most_viewed", limit: number) =>
    listItems({ viewerId: null, query: listItemsQuerySchema.parse({ sort, limit }) }).then((page) => page.items);
  const featured = (await publicList("featured", count)).filter((item) => item.featuredAt !== null);
  if (featured.length === count) return featured;
  const popular = await publicList("most_viewed", count + featured.length);
  return [...featured, ...popular.filter((item) => item.featuredAt === null)].slice(0, count);
}
