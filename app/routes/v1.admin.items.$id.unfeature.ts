import { apiRoute, endpoint } from "~/api/route.server";
import { unfeatureItem } from "~/domain/featured.server";
import { idParamsSchema } from "~/domain/schemas";

// POST /v1/admin/items/{id}/unfeature → stops featuring a model (audit-logged).
const route = apiRoute({
  POST: endpoint({
    auth: "admin",
    params: idParamsSchema,
    handler: ({ user, params }) => unfeatureItem({ itemId: params.id, actorId: user.id }),
  }),
});

export const loader = route.loader;
export const action = route.action;
