import { apiRoute, endpoint } from "~/api/route.server";
import { annotationParamsSchema } from "~/domain/annotation-schemas";
import { serveAnnotationImage } from "~/domain/annotations.server";

// GET /v1/item/{id}/annotations/{annotationId}/image → the annotation's picture (whoever may see the item).
const route = apiRoute({
  GET: endpoint({
    auth: "optional",
    params: annotationParamsSchema,
    handler: ({ user, params, request }) =>
      serveAnnotationImage({ itemId: params.id, annotationId: params.annotationId, viewerId: user?.id ?? null, request }),
  }),
});

export const loader = route.loader;
export const action = route.action;
