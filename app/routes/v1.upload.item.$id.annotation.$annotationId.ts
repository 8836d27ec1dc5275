import { apiRoute, endpoint } from "~/api/route.server";
import { annotationImageQuerySchema, annotationParamsSchema } from "~/domain/annotation-schemas";
import { createAnnotationImageUpload } from "~/domain/annotations.server";

// GET /v1/upload/item/{id}/annotation/{annotationId}?filename= → { path, url } (SPEC §7): PUT the
// picture to url, then PATCH the annotation with image_path: path.
const route = apiRoute({
  GET: endpoint({
    auth: "required",
    params: annotationParamsSchema,
    query: annotationImageQuerySchema,
    handler: ({ user, params, query }) =>
      createAnnotationImageUpload({ itemId: params.id, annotationId: params.annotationId, ownerId: user.id, fileName: query.filename }),
  }),
});

export const loader = route.loader;
export const action = route.action;
