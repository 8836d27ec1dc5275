import { apiRoute, endpoint } from "~/api/route.server";
import { createItemUploadUrl } from "~/domain/uploads.server";
import { idParamsSchema, uploadItemQuerySchema } from "~/domain/schemas";

// GET /v1/upload/item/{id}?uploadType= → { path, url }
const route = apiRoute({
  GET: endpoint({
    auth: "required",
    params: idParamsSchema,
    query: uploadItemQuerySchema,
    handler: ({ user, params, query }) =>
      createItemUploadUrl({ itemId: params.id, ownerId: user.id, uploadType: query.uploadType }),
  }),
});

export const loader = route.loader;
export const action = route.action;
