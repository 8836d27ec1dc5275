import { apiRoute, endpoint } from "~/api/route.server";
import { listNotifications, markNotificationsRead } from "~/domain/notifications.server";
import { markNotificationsReadBodySchema } from "~/domain/schemas";

// POST /v1/notifications/read {ids?} → marks the given (or all) of the caller's notifications read.
const route = apiRoute({
  POST: endpoint({
    auth: "required",
    body: markNotificationsReadBodySchema,
    handler: async ({ user, body }) => {
      const marked = await markNotificationsRead({ userId: user.id, ids: body.ids });
      const { unread_count } = await listNotifications({ userId: user.id });
      return { marked, unread_count };
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
