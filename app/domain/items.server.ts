import { db, Prisma, type Item } from "~/db.server";
import { getOwnedItem, getVisibleItem, ownerSelect, type ItemWithOwner } from "./item-access.server";
import { storage } from "~/storage/index.server";
import { itemPrefix, thumbnailKey } from "~/storage/keys";
import { acceptUploadedImage, createImageUploadUrl, serveImage } from "./images.server";
import { AppError, notFound } from "~/lib/errors";
import { decodeItemCursor, encodeItemCursor, type ItemCursor } from "./pagination";
import { releaseCreditsOfUnfinishedScans } from "./scans.server";
import { storefrontProductsOf, storefrontsShowingItemChanged } from "./storefront-sync.server";
import { getPlanInForce } from "./plans.server";
import type { ListItemsQuery } from "./schemas";
import { listedStatusWhere } from "./scene-drafts";
import type { DeclaredModelType } from "~/formats/model-format";
import { normalizeTag, type License } from "./item-details";

/**
 * Items (models). Every query is scoped (STYLE habit 5): reads by visibility or owner, writes by owner.
 */
export async function createItem(input: {
  ownerId: string;
  modelType: DeclaredModelType;
  uploadType: "model" | "image" | "video";
  name?: string;
}): Promise<Item> {
  return db().item.create({
    data: {
      ownerId: input.ownerId,
      modelType: input.modelType,
      uploadType: input.uploadType,
      name: input.name ?? "Untitled model",
      status: "uploading",
    },
  });
}

export async function updateItem(input: {
  itemId: string;
  ownerId: string;
  changes: {
    name?: string;
    description?: string;
    visibility?: "public" | "unlisted" | "private";
    categoryId?: string | null;
    allowDownloads?: boolean;
    tags?: string[];
    license?: License;
  };
}): Promise<ItemWithOwner> {
  // An unknown category is the client's mistake (issue 17 item 6): a 400, also when one is deleted meanwhile.
  const unknownCategory = () => new AppError("invalid_input", "category_id is not one of the categories (GET /v1/categories).");
  const { categoryId } = input.changes;
  if (categoryId && !(await db().category.findUnique({ where: { id: categoryId }, select: { id: true } }))) throw unknownCategory();
  const { count } = await db()
    .item.updateMany({ where: { id: input.itemId, ownerId: input.ownerId }, data: input.changes })
    .catch((error: unknown) => {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2003") throw unknownCategory();
      throw error;
    });
  if (count === 0) throw notFound();
  // What shoppers see of a linked model (it, its name) changed: storefronts follow.
  if (input.changes.visibility !== undefined || input.changes.name !== undefined) await storefrontsShowingItemChanged(input.itemId);
  return getVisibleItem({ itemId: input.itemId, viewerId: input.ownerId });
}

/** Deletes the item and every stored file under it. */
export async function deleteItem({ itemId, ownerId }: { itemId: string; ownerId: string }): Promise<void> {
  await releaseCreditsOfUnfinishedScans({ itemId, ownerId }); // before its ScanJobs go with it
  const storefronts = await storefrontProductsOf(itemId); // before its product links go with it
  const { count } = await db().item.deleteMany({ where: { id: itemId, ownerId } });
  if (count === 0) throw notFound();
  await storefrontsShowingItemChanged(itemId, storefronts);
  await storage().deletePrefix(itemPrefix(itemId));
}

/**
 * Lists items: `owner=me` lists the caller's own items (any visibility); otherwise public items only,
 * optionally of one owner. Cursor-based, so deep pages stay as fast as the first. Draft scenes (never saved,
 * decision 046) are listed only to their owner and only when asked for with `status=draft`.
 */
export async function listItems({ viewerId, query }: { viewerId: string | null; query: ListItemsQuery }) {
  const ownerId = query.owner === "me" ? viewerId : query.owner;
  const own = ownerId !== undefined && ownerId !== null && ownerId === viewerId;
  if (query.owner === "me" && !viewerId) return { items: [] as ItemWithOwner[], next_cursor: null };
  const status = listedStatusWhere({ status: query.status, own });
  if (status === null) return { items: [] as ItemWithOwner[], next_cursor: null };

  const where: Prisma.ItemWhereInput = own
    ? { ownerId: viewerId!, ...(query.visibility ? { visibility: query.visibility } : {}) }
    : { visibility: "public", unpublishedAt: null, owner: { disabledAt: null }, ...(ownerId ? { ownerId } : {}) };
  where.status = status;
  if (query.model_type) where.modelType = query.model_type;
  if (query.upload_type) where.uploadType = query.upload_type;
  if (query.category) where.category = { slug: query.category };
  if (query.downloadable !== undefined) where.allowDownloads = query.downloadable;
  if (query.q) where.OR = searchMatches(query.q);

  const byViews = query.sort === "most_viewed";
  const cursor = decodeItemCursor(query.cursor, query.sort);
  if (query.sort === "featured") return listFeaturedFirst(where, cursor, query.limit);
  const and: Prisma.ItemWhereInput[] = [where];
  if (cursor) {
    and.push(
      byViews
        ? { OR: [{ viewCount: { lt: Number(cursor.v) } }, { viewCount: Number(cursor.v), id: { lt: cursor.i } }] }
        : { OR: [{ createdAt: { lt: new Date(cursor.v as string) } }, { createdAt: new Date(cursor.v as string), id: { lt: cursor.i } }] },
    );
  }
  const rows = await db().item.findMany({
    where: { AND: and },
    include: { owner: ownerSelect },
    orderBy: byViews ? [{ viewCount: "desc" }, { id: "desc" }] : [{ createdAt: "desc" }, { id: "desc" }],
    take: query.limit + 1,
  });
  const items = rows.slice(0, query.limit);
  const last = items[items.length - 1];
  const next_cursor =
    rows.length > query.limit && last
      ? encodeItemCursor({ v: byViews ? last.viewCount : last.createdAt.toISOString(), i: last.id })
      : null;
  return { items, next_cursor };
}

const newerThan = (cursor: ItemCursor, field: "createdAt" | "featuredAt"): Prisma.ItemWhereInput => ({
  OR: [{ [field]: { lt: new Date(cursor.v as string) } }, { [field]: new Date(cursor.v as string), id: { lt: cursor.i } }],
});

/**
 * The "featured" sort (issue 35 item 5): the featured models, most recently featured first, then every other
 * model newest first. Two keyset walks behind one cursor, so each stays on its own index and deep pages stay fast.
 */
async function listFeaturedFirst(where: Prisma.ItemWhereInput, cursor: ItemCursor | null, limit: number) {
  const include = { owner: ownerSelect };
  const featured =
    cursor?.p === "n"
      ? []
      : await db().item.findMany({
          where: { AND: [where, { featuredAt: { not: null } }, ...(cursor ? [newerThan(cursor, "featuredAt")] : [])] },
          include,
          orderBy: [{ featuredAt: "desc" }, { id: "desc" }],
          take: limit + 1,
        });
  const featuredCursor = (item: ItemWithOwner) => encodeItemCursor({ p: "f", v: item.featuredAt!.toISOString(), i: item.id });
  if (featured.length > limit) return { items: featured.slice(0, limit), next_cursor: featuredCursor(featured[limit - 1]) };

  const room = limit - featured.length;
  const rest = await db().item.findMany({
    where: { AND: [where, { featuredAt: null }, ...(cursor?.p === "n" ? [newerThan(cursor, "createdAt")] : [])] },
    include,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: room + 1,
  });
  const items = [...featured, ...rest.slice(0, room)];
  if (rest.length <= room) return { items, next_cursor: null };
  // A page filled by featured models alone goes on from its last one (the next page then starts the rest).
  const last = items[items.length - 1];
  return { items, next_cursor: room === 0 ? featuredCursor(last) : encodeItemCursor({ p: "n", v: last.createdAt.toISOString(), i: last.id }) };
}

/** Items whose title or description holds the text, or that carry it as a whole tag ("Chair" finds the tag "chair"). */
function searchMatches(q: string): Prisma.ItemWhereInput[] {
  const tag = normalizeTag(q);
  return [
    { name: { contains: q, mode: "insensitive" } },
    { description: { contains: q, mode: "insensitive" } },
    ...(tag ? [{ tags: { has: tag } }] : []),
  ];
}

/** A signed upload link for a new thumbnail image (≤ 2 MB jpeg/png/webp/gif). */
export async function createThumbnailUpload({ itemId, ownerId }: { itemId: string; ownerId: string }) {
  await getOwnedItem({ itemId, ownerId });
  return createImageUploadUrl({ key: thumbnailKey(itemId) });
}

/** Sets (after checking the uploaded image) or with null clears an item's thumbnail; the old image is deleted. */
export async function setItemThumbnail({ itemId, ownerId, key }: { itemId: string; ownerId: string; key: string | null }) {
  const item = await getOwnedItem({ itemId, ownerId });
  if (key !== null) await acceptUploadedImage({ key, prefix: `${itemPrefix(itemId)}thumbnail/` });
  await db().item.updateMany({ where: { id: itemId, ownerId }, data: { thumbnailKey: key } });
  if (item.thumbnailKey && item.thumbnailKey !== key) await storage().delete(item.thumbnailKey).catch(() => undefined);
  return getVisibleItem({ itemId, viewerId: ownerId });
}

/**
 * The embed watermark (SPEC §3 embed setting is_watermark_enabled). Turning it off needs a plan
 * with watermark removal; turning it on is always allowed.
 */
export async function setItemWatermark({ itemId, ownerId, enabled }: { itemId: string; ownerId: string; enabled: boolean }) {
  await getOwnedItem({ itemId, ownerId });
  if (!enabled) {
    const plan = await getPlanInForce({ userId: ownerId });
    if (!plan.watermarkRemoval) {
      throw new AppError("forbidden", "Your plan does not include removing the watermark. Upgrade to Growth or Pro.");
    }
  }
  await db().item.updateMany({ where: { id: itemId, ownerId }, data: { isWatermarkEnabled: enabled } });
  return getVisibleItem({ itemId, viewerId: ownerId });
}

/** The thumbnail image of an item the viewer may see. */
export async function serveItemThumbnail({ itemId, viewerId, request }: { itemId: string; viewerId: string | null; request: Request }) {
  const item = await getVisibleItem({ itemId, viewerId });
  if (!item.thumbnailKey) throw notFound("Thumbnail");
  const version = new URL(request.url).searchParams.get("v");
  return serveImage({ key: item.thumbnailKey, request, immutable: version === item.thumbnailKey.split("/").pop() });
}

/** How many models a profile lists (the same rule as listItems for other people's public items). */
export async function countPublicItems({ ownerId }: { ownerId: string }): Promise<number> {
  return db().item.count({ where: { ownerId, visibility: "public", status: "ready", unpublishedAt: null, owner: { disabledAt: null } } });
}
