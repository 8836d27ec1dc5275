import { apiRoute, endpoint } from "~/api/route.server";
import { restoreItem } from "~/domain/moderation.server";
import { idParamsSchema } from "~/domain/schemas";

// POST /v1/admin/items/{id}/restore → publishes an unpublished item again.
const route = apiRoute({
  POST: endpoint({
    auth: "admin",
    params: idParamsSchema,
    handler: ({ user, params }) => restoreItem({ itemId: params.id, actorId: user.id }),
  }),
});

export const loader = route.loader;
export const action = route.action;
