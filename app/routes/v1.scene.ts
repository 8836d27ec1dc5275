import { apiRoute, endpoint } from "~/api/route.server";
import { createSceneBodySchema } from "~/domain/scene-schemas";
import { createScene } from "~/domain/scenes.server";

// POST /v1/scene — a new (private) scene of the caller's, optionally with models in it; answers its item_id
// like POST /v1/item.
const route = apiRoute({
  POST: endpoint({
    auth: "required",
    body: createSceneBodySchema,
    handler: async ({ user, body }) => ({ item_id: (await createScene({ ownerId: user.id, name: body.name, itemIds: body.item_ids })).id }),
  }),
});

export const loader = route.loader;
export const action = route.action;
