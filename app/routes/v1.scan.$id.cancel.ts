import { apiRoute, endpoint } from "~/api/route.server";
import { cancelScan } from "~/domain/scan-control.server";
import { idParamsSchema } from "~/domain/schemas";

// POST /v1/scan/{id}/cancel → stops the item's queued or running scan; its credit is released.
const route = apiRoute({
  POST: endpoint({
    auth: "required",
    params: idParamsSchema,
    handler: ({ user, params }) => cancelScan({ itemId: params.id, ownerId: user.id }),
  }),
});

export const loader = route.loader;
export const action = route.action;
