import { apiRoute, endpoint } from "~/api/route.server";
import { getPageUser } from "~/auth/require-user.server";
import { presentItem } from "~/domain/item-presenter";
import { createThumbnailUpload, serveItemThumbnail, setItemThumbnail } from "~/domain/items.server";
import { idParamsSchema, imagePathBodySchema } from "~/domain/schemas";

// GET: the thumbnail image (for the bearer's or the site session's user). POST → {path, url} to PUT a new one (≤ 2 MB); PUT {path} sets it, {path: null} clears it.
const route = apiRoute({
  GET: endpoint({
    auth: "optional",
    params: idParamsSchema,
    // An <img> sends no bearer token: the site's session cookie names the owner of a private item too.
    handler: async ({ user, params, request }) =>
      serveItemThumbnail({ itemId: params.id, viewerId: user?.id ?? (await getPageUser(request))?.id ?? null, request }),
  }),
  POST: endpoint({
    auth: "required",
    params: idParamsSchema,
    handler: ({ user, params }) => createThumbnailUpload({ itemId: params.id, ownerId: user.id }),
  }),
  PUT: endpoint({
    auth: "required",
    params: idParamsSchema,
    body: imagePathBodySchema,
    handler: async ({ user, params, body }) =>
      presentItem(await setItemThumbnail({ itemId: params.id, ownerId: user.id, key: body.path }), user.id),
  }),
});

export const loader = route.loader;
export const action = route.action;
