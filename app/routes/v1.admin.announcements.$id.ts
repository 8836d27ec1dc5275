import { apiRoute, endpoint } from "~/api/route.server";
import { deleteAnnouncement, updateAnnouncement } from "~/domain/announcements.server";
import { announcementUpdateSchema, idParamsSchema } from "~/domain/schemas";

// PUT /v1/admin/announcements/{id} → changes the given fields; DELETE removes it (SPEC §7).
const route = apiRoute({
  PUT: endpoint({
    auth: "admin",
    params: idParamsSchema,
    body: announcementUpdateSchema,
    handler: ({ user, params, body }) => updateAnnouncement({ id: params.id, changes: body, actorId: user.id }),
  }),
  DELETE: endpoint({
    auth: "admin",
    params: idParamsSchema,
    handler: async ({ user, params }) => {
      await deleteAnnouncement({ id: params.id, actorId: user.id });
      return { id: params.id, deleted: true };
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
