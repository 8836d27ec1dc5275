import { apiRoute, endpoint } from "~/api/route.server";
import { retryScan } from "~/domain/scan-control.server";
import { idParamsSchema } from "~/domain/schemas";

// POST /v1/scan/{id}/retry → runs a failed or cancelled scan again from its stored inputs, for one credit.
const route = apiRoute({
  POST: endpoint({
    auth: "required",
    params: idParamsSchema,
    handler: ({ user, params }) => retryScan({ itemId: params.id, ownerId: user.id }),
  }),
});

export const loader = route.loader;
export const action = route.action;
