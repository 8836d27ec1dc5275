import { apiRoute, endpoint } from "~/api/route.server";
import { getScanStatus } from "~/domain/scan-control.server";
import { idParamsSchema } from "~/domain/schemas";

// GET /v1/scan/{id} → the item's latest scan: stage, progress, estimate, error and advice, quality figures (owner only).
const route = apiRoute({
  GET: endpoint({
    auth: "required",
    params: idParamsSchema,
    handler: ({ user, params }) => getScanStatus({ itemId: params.id, ownerId: user.id }),
  }),
});

export const loader = route.loader;
export const action = route.action;
