import { apiRoute, endpoint } from "~/api/route.server";
import { adjustUserCredits } from "~/domain/admin-users.server";
import { creditAdjustmentSchema, idParamsSchema } from "~/domain/schemas";

// POST /v1/admin/users/{id}/credits {credit_type, amount, reason} → an `adjustment` ledger entry; answers the new balance.
const route = apiRoute({
  POST: endpoint({
    auth: "admin",
    params: idParamsSchema,
    body: creditAdjustmentSchema,
    handler: ({ user, params, body }) => adjustUserCredits({ userId: params.id, input: body, actorId: user.id }),
  }),
});

export const loader = route.loader;
export const action = route.action;
