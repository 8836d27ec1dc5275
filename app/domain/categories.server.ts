import { db, Prisma, type Category } from "~/db.server";
import { checkCompleteOrder } from "~/lib/reorder";
import { slugify } from "~/lib/slug";
import { audited } from "./audit.server";
import { AppError, invalidInput, notFound } from "~/lib/errors";
import type { CategoryInput } from "./schemas";

/** Categories of items (Explore's filter). Admins create, rename, reorder and delete them; every change is audited. */
export function presentCategory(c: Category) {
  return { id: c.id, slug: c.slug, name: c.name, order: c.sortOrder };
}

const BY_ORDER = [{ sortOrder: "asc" as const }, { name: "asc" as const }];

export async function listCategories() {
  const rows = await db().category.findMany({ orderBy: BY_ORDER });
  return rows.map(presentCategory);
}

/** Every category with how many items it holds, for the admin list. */
export async function listCategoriesForAdmin() {
  const rows = await db().category.findMany({ orderBy: BY_ORDER, include: { _count: { select: { items: true } } } });
  return rows.map((c) => ({ ...presentCategory(c), item_count: c._count.items }));
}

interface Actor {
  actorId: string | null;
}

function slugTaken(error: unknown, slug: string): never {
  if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
    throw new AppError("conflict", `A category with the slug "${slug}" already exists.`);
  }
  throw error;
}

/** A new category at the end of the list; its slug comes from the name unless given. */
export async function createCategory({ input, actorId }: { input: CategoryInput } & Actor) {
  const slug = input.slug ?? slugify(input.name);
  if (!slug) throw invalidInput("name must contain letters or digits (or give a slug)");
  return audited(actorId, async (tx) => {
    const last = await tx.category.aggregate({ _max: { sortOrder: true } });
    const row = await tx.category
      .create({ data: { name: input.name, slug, sortOrder: (last._max.sortOrder ?? -1) + 1 } })
      .catch((error: unknown) => slugTaken(error, slug));
    const result = presentCategory(row);
    return { result, audit: { action: "category.create", targetType: "category", targetId: row.id, before: null, after: result } };
  });
}

/** Renames a category (and optionally changes its slug). */
export async function updateCategory({ id, changes, actorId }: { id: string; changes: Partial<CategoryInput> } & Actor) {
  return audited(actorId, async (tx) => {
    const before = await tx.category.findUnique({ where: { id } });
    if (!before) throw notFound("Category");
    const row = await tx.category
      .update({ where: { id }, data: { name: changes.name, slug: changes.slug } })
      .catch((error: unknown) => slugTaken(error, changes.slug ?? ""));
    const result = presentCategory(row);
    return { result, audit: { action: "category.update", targetType: "category", targetId: id, before: presentCategory(before), after: result } };
  });
}

/** Deletes a category; its items keep working with no category (the foreign key sets it to null). */
export async function deleteCategory({ id, actorId }: { id: string } & Actor) {
  return audited(actorId, async (tx) => {
    const before = await tx.category.findUnique({ where: { id }, include: { _count: { select: { items: true } } } });
    if (!before) throw notFound("Category");
    await tx.category.delete({ where: { id } });
    const result = { items_uncategorised: before._count.items };
    return {
      result,
      audit: {
        action: "category.delete",
        targetType: "category",
        targetId: id,
        before: { ...presentCategory(before), item_count: before._count.items },
        after: null,
      },
    };
  });
}

/** Puts every category in the given order: all or nothing, each id exactly once. */
export async function reorderCategories({ categoryIds, actorId }: { categoryIds: string[] } & Actor) {
  return audited(actorId, async (tx) => {
    await tx.$queryRaw`SELECT id FROM "Category" FOR UPDATE`;
    const before = (await tx.category.findMany({ orderBy: BY_ORDER, select: { id: true } })).map((c) => c.id);
    const problem = checkCompleteOrder({ requested: categoryIds, existing: before, field: "categoryIds" });
    if (problem) throw invalidInput(problem);
    for (const [sortOrder, id] of categoryIds.entries()) await tx.category.update({ where: { id }, data: { sortOrder } });
    const rows = await tx.category.findMany({ orderBy: BY_ORDER });
    return {
      result: rows.map(presentCategory),
      audit: { action: "category.reorder", targetType: "category", targetId: null, before, after: categoryIds },
    };
  });
}
