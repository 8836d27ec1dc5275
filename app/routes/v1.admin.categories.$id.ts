import { apiRoute, endpoint } from "~/api/route.server";
import { deleteCategory, updateCategory } from "~/domain/categories.server";
import { categoryUpdateSchema, idParamsSchema } from "~/domain/schemas";

// PUT /v1/admin/categories/{id} → renames it; DELETE removes it (its items keep working, uncategorised).
const route = apiRoute({
  PUT: endpoint({
    auth: "admin",
    params: idParamsSchema,
    body: categoryUpdateSchema,
    handler: ({ user, params, body }) => updateCategory({ id: params.id, changes: body, actorId: user.id }),
  }),
  DELETE: endpoint({
    auth: "admin",
    params: idParamsSchema,
    handler: ({ user, params }) => deleteCategory({ id: params.id, actorId: user.id }),
  }),
});

export const loader = route.loader;
export const action = route.action;
