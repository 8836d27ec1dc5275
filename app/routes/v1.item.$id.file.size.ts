import { apiRoute, endpoint } from "~/api/route.server";
import { confirmModelFile } from "~/domain/uploads.server";
import { fileSizeBodySchema, idParamsSchema } from "~/domain/schemas";

// POST /v1/item/{id}/file/size { size } or { file_size } — the server re-checks the stored bytes (domain/uploads).
const route = apiRoute({
  POST: endpoint({
    auth: "required",
    params: idParamsSchema,
    body: fileSizeBodySchema,
    handler: async ({ user, params, body }) => {
      const item = await confirmModelFile({ itemId: params.id, ownerId: user.id, size: body.size });
      return { item_id: item.id, file_size: Number(item.fileSize), status: item.status };
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
