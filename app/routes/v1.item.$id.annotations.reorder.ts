import { apiRoute, endpoint } from "~/api/route.server";
import { reorderAnnotationsBodySchema } from "~/domain/annotation-schemas";
import { reorderAnnotations } from "~/domain/annotations.server";
import { idParamsSchema } from "~/domain/schemas";

// PUT /v1/item/{id}/annotations/reorder {annotationIds} → the annotations in their new order (owner only).
// Named like SPEC's PUT /admin/announcements/reorder {announcementIds}.
const route = apiRoute({
  PUT: endpoint({
    auth: "required",
    params: idParamsSchema,
    body: reorderAnnotationsBodySchema,
    handler: ({ user, params, body }) => reorderAnnotations({ itemId: params.id, ownerId: user.id, annotationIds: body.annotationIds }),
  }),
});

export const loader = route.loader;
export const action = route.action;
