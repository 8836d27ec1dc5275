import { apiRoute, endpoint } from "~/api/route.server";
import { idParamsSchema, uploadImageFilesBodySchema } from "~/domain/schemas";
import { createImageFileUploadUrls } from "~/domain/uploads.server";

// POST /v1/upload/image/{id}/files {filenames: [...]} → {files: [{filename, path, url}]}: upload links for up
// to 100 photos of a set in one request, beside SPEC's per-file GET …/file (issue 19 item 5; same rules).
const route = apiRoute({
  POST: endpoint({
    auth: "required",
    params: idParamsSchema,
    body: uploadImageFilesBodySchema,
    handler: async ({ user, params, body }) => ({
      files: await createImageFileUploadUrls({ itemId: params.id, ownerId: user.id, fileNames: body.filenames }),
    }),
  }),
});

export const loader = route.loader;
export const action = route.action;
