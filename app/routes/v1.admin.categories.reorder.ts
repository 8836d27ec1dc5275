import { apiRoute, endpoint } from "~/api/route.server";
import { reorderCategories } from "~/domain/categories.server";
import { categoryReorderSchema } from "~/domain/schemas";

// PUT /v1/admin/categories/reorder {categoryIds} → every category in that order, all or nothing.
const route = apiRoute({
  PUT: endpoint({
    auth: "admin",
    body: categoryReorderSchema,
    handler: ({ user, body }) => reorderCategories({ categoryIds: body.categoryIds, actorId: user.id }),
  }),
});

export const loader = route.loader;
export const action = route.action;
