import { apiRoute, endpoint } from "~/api/route.server";
import { listPublicItemsForModeration } from "~/domain/moderation.server";
import { adminItemsQuerySchema } from "~/domain/schemas";

// GET /v1/admin/items?state=all|published|unpublished → the newest public items, for moderation.
const route = apiRoute({
  GET: endpoint({ auth: "admin", query: adminItemsQuerySchema, handler: ({ query }) => listPublicItemsForModeration(query) }),
});

export const loader = route.loader;
export const action = route.action;
