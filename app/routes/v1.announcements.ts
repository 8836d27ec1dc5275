import { apiRoute, endpoint } from "~/api/route.server";
import { listActiveAnnouncements } from "~/domain/announcements.server";

// GET /v1/announcements → the active announcements, by order ascending, HTML sanitised (SPEC §7).
const route = apiRoute({
  GET: endpoint({ auth: "none", handler: () => listActiveAnnouncements() }),
});

export const loader = route.loader;
export const action = route.action;
