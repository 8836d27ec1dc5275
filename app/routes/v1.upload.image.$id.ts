import { apiRoute, endpoint } from "~/api/route.server";
import { idParamsSchema } from "~/domain/schemas";
import { createImageFolder } from "~/domain/uploads.server";

// GET /v1/upload/image/{id} → { path, url } of the image set's folder (SPEC §7)
const route = apiRoute({
  GET: endpoint({
    auth: "required",
    params: idParamsSchema,
    handler: ({ user, params }) => createImageFolder({ itemId: params.id, ownerId: user.id }),
  }),
});

export const loader = route.loader;
export const action = route.action;
