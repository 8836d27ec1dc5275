import { apiRoute, endpoint } from "~/api/route.server";
import { modelFileResponse } from "~/api/model-file-response.server";
import { scenePartParamsSchema } from "~/domain/scene-schemas";
import { scenePartModelFile } from "~/domain/scenes.server";

// GET /v1/item/{id}/scene/{partId}/file — one part of a scene (the Builder), XOR-obfuscated like a model's
// file, for whoever may see the scene.
const route = apiRoute({
  GET: endpoint({
    auth: "optional",
    params: scenePartParamsSchema,
    handler: async ({ user, params, request }) =>
      modelFileResponse(await scenePartModelFile({ sceneId: params.id, partId: params.partId, viewerId: user?.id ?? null }), request),
  }),
});

export const loader = route.loader;
export const action = route.action;
