import { apiRoute, endpoint } from "~/api/route.server";
import { idParamsSchema, uploadImageFileQuerySchema } from "~/domain/schemas";
import { createImageFileUploadUrl } from "~/domain/uploads.server";

// GET /v1/upload/image/{id}/file?filename=image-001.jpg → { path, url } (SPEC §7)
const route = apiRoute({
  GET: endpoint({
    auth: "required",
    params: idParamsSchema,
    query: uploadImageFileQuerySchema,
    handler: ({ user, params, query }) =>
      createImageFileUploadUrl({ itemId: params.id, ownerId: user.id, fileName: query.filename }),
  }),
});

export const loader = route.loader;
export const action = route.action;
