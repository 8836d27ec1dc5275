import { apiRoute, endpoint } from "~/api/route.server";
import { featureItem } from "~/domain/featured.server";
import { idParamsSchema } from "~/domain/schemas";

// POST /v1/admin/items/{id}/feature → features a public, ready model: Explore and the front door show it first (audit-logged, its owner is told).
const route = apiRoute({
  POST: endpoint({
    auth: "admin",
    params: idParamsSchema,
    handler: ({ user, params }) => featureItem({ itemId: params.id, actorId: user.id }),
  }),
});

export const loader = route.loader;
export const action = route.action;
