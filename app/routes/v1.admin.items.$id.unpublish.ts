import { apiRoute, endpoint } from "~/api/route.server";
import { unpublishItem } from "~/domain/moderation.server";
import { idParamsSchema, unpublishItemSchema } from "~/domain/schemas";

// POST /v1/admin/items/{id}/unpublish {reason} → hides a public item from everyone but its owner, who sees the reason.
const route = apiRoute({
  POST: endpoint({
    auth: "admin",
    params: idParamsSchema,
    body: unpublishItemSchema,
    handler: ({ user, params, body }) => unpublishItem({ itemId: params.id, reason: body.reason, actorId: user.id }),
  }),
});

export const loader = route.loader;
export const action = route.action;
