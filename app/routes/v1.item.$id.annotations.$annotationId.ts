import { apiRoute, endpoint } from "~/api/route.server";
import { annotationParamsSchema, updateAnnotationBodySchema } from "~/domain/annotation-schemas";
import { deleteAnnotation, updateAnnotation } from "~/domain/annotations.server";

// PATCH /v1/item/{id}/annotations/{annotationId} {title?, body?, position?, normal?, camera?, image_path?}
// DELETE /v1/item/{id}/annotations/{annotationId}. Owner only.
const route = apiRoute({
  PATCH: endpoint({
    auth: "required",
    params: annotationParamsSchema,
    body: updateAnnotationBodySchema,
    handler: ({ user, params, body }) =>
      updateAnnotation({ itemId: params.id, annotationId: params.annotationId, ownerId: user.id, changes: body }),
  }),
  DELETE: endpoint({
    auth: "required",
    params: annotationParamsSchema,
    handler: ({ user, params }) => deleteAnnotation({ itemId: params.id, annotationId: params.annotationId, ownerId: user.id }),
  }),
});

export const loader = route.loader;
export const action = route.action;
