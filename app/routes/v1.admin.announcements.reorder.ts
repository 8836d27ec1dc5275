import { apiRoute, endpoint } from "~/api/route.server";
import { reorderAnnouncements } from "~/domain/announcements.server";
import { announcementReorderSchema } from "~/domain/schemas";

// PUT /v1/admin/announcements/reorder {announcementIds} → every announcement in that order, all or nothing (SPEC §7).
const route = apiRoute({
  PUT: endpoint({
    auth: "admin",
    body: announcementReorderSchema,
    handler: ({ user, body }) => reorderAnnouncements({ announcementIds: body.announcementIds, actorId: user.id }),
  }),
});

export const loader = route.loader;
export const action = route.action;
