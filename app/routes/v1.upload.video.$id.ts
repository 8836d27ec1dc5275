import { apiRoute, endpoint } from "~/api/route.server";
import { idParamsSchema, uploadVideoQuerySchema } from "~/domain/schemas";
import { createVideoUploadUrl } from "~/domain/uploads.server";

// GET /v1/upload/video/{id}[?size=&filename=] → { path, url[, part_size, part_urls] } (SPEC §7)
const route = apiRoute({
  GET: endpoint({
    auth: "required",
    params: idParamsSchema,
    query: uploadVideoQuerySchema,
    handler: ({ user, params, query }) =>
      createVideoUploadUrl({ itemId: params.id, ownerId: user.id, size: query.size, fileName: query.filename }),
  }),
});

export const loader = route.loader;
export const action = route.action;
