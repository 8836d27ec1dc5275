import { apiRoute, endpoint } from "~/api/route.server";
import { setUserDisabled } from "~/domain/admin-users.server";
import { idParamsSchema, userDisabledSchema } from "~/domain/schemas";

// PUT /v1/admin/users/{id}/disabled {disabled, reason} → disables (reason required) or re-enables a user.
const route = apiRoute({
  PUT: endpoint({
    auth: "admin",
    params: idParamsSchema,
    body: userDisabledSchema,
    handler: ({ user, params, body }) =>
      setUserDisabled({ userId: params.id, disabled: body.disabled, reason: body.reason, actorId: user.id }),
  }),
});

export const loader = route.loader;
export const action = route.action;
