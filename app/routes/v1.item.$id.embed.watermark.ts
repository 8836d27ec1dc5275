import { apiRoute, endpoint } from "~/api/route.server";
import { presentItem } from "~/domain/item-presenter";
import { setItemWatermark } from "~/domain/items.server";
import { idParamsSchema, watermarkBodySchema } from "~/domain/schemas";

// PATCH /v1/item/{id}/embed/watermark {is_watermark_enabled} (SPEC §7); turning it off needs a plan that allows it.
const route = apiRoute({
  PATCH: endpoint({
    auth: "required",
    params: idParamsSchema,
    body: watermarkBodySchema,
    handler: async ({ user, params, body }) =>
      presentItem(await setItemWatermark({ itemId: params.id, ownerId: user.id, enabled: body.is_watermark_enabled }), user.id),
  }),
});

export const loader = route.loader;
export const action = route.action;
