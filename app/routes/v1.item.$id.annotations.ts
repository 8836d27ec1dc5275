import { apiRoute, endpoint } from "~/api/route.server";
import { createAnnotationBodySchema } from "~/domain/annotation-schemas";
import { createAnnotation, listVisibleAnnotations } from "~/domain/annotations.server";
import { idParamsSchema } from "~/domain/schemas";

// GET /v1/item/{id}/annotations → the item's annotations in tour order (whoever may see the item).
// POST /v1/item/{id}/annotations {title, body?, position, normal?, camera?} → the new annotation (owner only).
const route = apiRoute({
  GET: endpoint({
    auth: "optional",
    params: idParamsSchema,
    handler: ({ user, params }) => listVisibleAnnotations({ itemId: params.id, viewerId: user?.id ?? null }),
  }),
  POST: endpoint({
    auth: "required",
    params: idParamsSchema,
    body: createAnnotationBodySchema,
    handler: ({ user, params, body }) => createAnnotation({ itemId: params.id, ownerId: user.id, input: body }),
  }),
});

export const loader = route.loader;
export const action = route.action;
