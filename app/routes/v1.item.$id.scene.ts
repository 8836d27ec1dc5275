import { apiRoute, endpoint } from "~/api/route.server";
import { idParamsSchema } from "~/domain/schemas";
import { saveSceneBodySchema } from "~/domain/scene-schemas";
import { presentScene } from "~/domain/scene-presenter";
import { getScene, saveScene } from "~/domain/scenes.server";

// GET /v1/item/{id}/scene — a scene's parts (models with their transforms and file URLs).
// PUT /v1/item/{id}/scene — the owner saves the whole scene as the Builder shows it.
const route = apiRoute({
  GET: endpoint({
    auth: "optional",
    params: idParamsSchema,
    handler: async ({ user, params }) => presentScene(await getScene({ sceneId: params.id, viewerId: user?.id ?? null }), user?.id ?? null),
  }),
  PUT: endpoint({
    auth: "required",
    params: idParamsSchema,
    body: saveSceneBodySchema,
    handler: async ({ user, params, body }) => {
      await saveScene({ sceneId: params.id, ownerId: user.id, body });
      return presentScene(await getScene({ sceneId: params.id, viewerId: user.id }), user.id);
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
