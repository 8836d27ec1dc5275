import { apiRoute, endpoint } from "~/api/route.server";
import { createCategory, listCategoriesForAdmin } from "~/domain/categories.server";
import { categoryInputSchema } from "~/domain/schemas";

// GET /v1/admin/categories → every category with its item count; POST creates one at the end.
const route = apiRoute({
  GET: endpoint({ auth: "admin", handler: () => listCategoriesForAdmin() }),
  POST: endpoint({
    auth: "admin",
    body: categoryInputSchema,
    handler: ({ user, body }) => createCategory({ input: body, actorId: user.id }),
  }),
});

export const loader = route.loader;
export const action = route.action;
