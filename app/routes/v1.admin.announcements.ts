import { apiRoute, endpoint } from "~/api/route.server";
import { createAnnouncement, listAllAnnouncements } from "~/domain/announcements.server";
import { announcementInputSchema } from "~/domain/schemas";

// GET /v1/admin/announcements → every announcement, active or not, by order (SPEC §7).
// POST /v1/admin/announcements → creates one; content is required and sanitised before it is stored.
const route = apiRoute({
  GET: endpoint({ auth: "admin", handler: () => listAllAnnouncements() }),
  POST: endpoint({
    auth: "admin",
    body: announcementInputSchema,
    handler: ({ user, body }) => createAnnouncement(body, { actorId: user.id }),
  }),
});

export const loader = route.loader;
export const action = route.action;
