import { db } from "~/db.server";

export async function listCategories() {
  const rows = await db().category.findMany({ orderBy: [{ sortOrder: "asc" }, { name: "asc" }] });
  return rows.map((c) => ({ id: c.id, slug: c.slug, name: c.name, order: c.sortOrder }));
}
