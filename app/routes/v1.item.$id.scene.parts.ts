import { apiRoute, endpoint } from "~/api/route.server";
import { idParamsSchema } from "~/domain/schemas";
import { addScenePartsBodySchema } from "~/domain/scene-schemas";
import { addSceneParts } from "~/domain/scenes.server";

// POST /v1/item/{id}/scene/parts — appends the owner's models to a scene; answers the new parts' ids.
const route = apiRoute({
  POST: endpoint({
    auth: "required",
    params: idParamsSchema,
    body: addScenePartsBodySchema,
    handler: async ({ user, params, body }) => ({ part_ids: await addSceneParts({ sceneId: params.id, ownerId: user.id, itemIds: body.item_ids }) }),
  }),
});

export const loader = route.loader;
export const action = route.action;
