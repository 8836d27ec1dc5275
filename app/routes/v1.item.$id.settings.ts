import { apiRoute, endpoint } from "~/api/route.server";
import { updateItemSettings } from "~/domain/item-settings.server";
import { idParamsSchema } from "~/domain/schemas";
import { viewerSettingsPatchSchema } from "~/domain/viewer-settings";

// PATCH /v1/item/{id}/settings (SPEC §7): any of camera, background, autorotate, units, meters_per_unit
// (null resets one); answers the item's whole viewer settings.
const route = apiRoute({
  PATCH: endpoint({
    auth: "required",
    params: idParamsSchema,
    body: viewerSettingsPatchSchema,
    handler: ({ user, params, body }) => updateItemSettings({ itemId: params.id, ownerId: user.id, patch: body }),
  }),
});

export const loader = route.loader;
export const action = route.action;
