import { apiRoute, endpoint } from "~/api/route.server";
import { listNotifications } from "~/domain/notifications.server";

// GET /v1/notifications → the caller's newest notifications and unread count.
const route = apiRoute({
  GET: endpoint({ auth: "required", handler: ({ user }) => listNotifications({ userId: user.id }) }),
});

export const loader = route.loader;
export const action = route.action;
