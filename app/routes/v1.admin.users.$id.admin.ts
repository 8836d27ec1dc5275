import { apiRoute, endpoint } from "~/api/route.server";
import { setUserAdmin } from "~/domain/admin-users.server";
import { adminFlagSchema, idParamsSchema } from "~/domain/schemas";

// PUT /v1/admin/users/{id}/admin {is_admin} → grants or revokes admin rights (never one's own).
const route = apiRoute({
  PUT: endpoint({
    auth: "admin",
    params: idParamsSchema,
    body: adminFlagSchema,
    handler: ({ user, params, body }) => setUserAdmin({ userId: params.id, isAdmin: body.is_admin, actorId: user.id }),
  }),
});

export const loader = route.loader;
export const action = route.action;
