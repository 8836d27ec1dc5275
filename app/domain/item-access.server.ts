/**
 * Who may read or change an item — the scoping every item query starts from (STYLE habit 5): reads by visibility or
 * owner, writes by owner. Below every other domain module that touches items (issue 39: items, scans and product
 * links imported each other for these).
 */
import { db, type Item, type Prisma } from "~/db.server";
import { notFound } from "~/lib/errors";
import { keptUntilChanged } from "~/lib/kept-until-changed.server";

export type ItemWithOwner = Item & { owner: { id: string; displayName: string | null } };

/** The owner fields every item read returns with it. */
export const ownerSelect = { select: { id: true, displayName: true } } as const;

/**
 * Who may see an item: its owner always; others only public or unlisted, published, live owners — and never a
 * draft scene, whatever its visibility says, until its first save (decision 046).
 */
export function visibleTo(viewerId: string | null): Prisma.ItemWhereInput {
  const others: Prisma.ItemWhereInput = {
    visibility: { in: ["public", "unlisted"] },
    // NOT, not `status`: callers spread this beside their own `status: "ready"`.
    NOT: { status: "draft" },
    unpublishedAt: null,
    owner: { disabledAt: null },
  };
  return viewerId ? { OR: [{ ownerId: viewerId }, others] } : others;
}

/**
 * What signed-out visitors may see of each model, kept in the web process until a change names the model or its
 * owner (a minute at most: view counts change without a notice), so that its page, embed, oEmbed answer and
 * downloads read it once (docs/decisions/066-public-item-records-kept-until-changed.md).
 */
const publicItems = keptUntilChanged<ItemWithOwner>({ shows: (item) => [`item:${item.id}`, `user:${item.ownerId}`] });

const findVisibleItem = (itemId: string, viewerId: string | null) =>
  db().item.findFirst({ where: { id: itemId, ...visibleTo(viewerId) }, include: { owner: ownerSelect } });

export async function getVisibleItem({ itemId, viewerId }: { itemId: string; viewerId: string | null }): Promise<ItemWithOwner> {
  const item = viewerId === null ? await publicItems.read(itemId, () => findVisibleItem(itemId, null)) : await findVisibleItem(itemId, viewerId);
  if (!item) throw notFound();
  return item;
}

/**
 * The item, where its owner's fields are not needed (a model file's download): a signed-out visitor's is the kept
 * record; a signed-in viewer's is read alone, one query where getVisibleItem makes two.
 */
export async function getVisibleItemRecord({ itemId, viewerId }: { itemId: string; viewerId: string | null }): Promise<Item> {
  if (viewerId === null) return getVisibleItem({ itemId, viewerId });
  const item = await db().item.findFirst({ where: { id: itemId, ...visibleTo(viewerId) } });
  if (!item) throw notFound();
  return item;
}

export async function getOwnedItem({ itemId, ownerId }: { itemId: string; ownerId: string }): Promise<Item> {
  const item = await db().item.findFirst({ where: { id: itemId, ownerId } });
  if (!item) throw notFound();
  return item;
}
