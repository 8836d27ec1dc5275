import { versionActionRoute } from "~/api/version-action-route.server";
import { restoreItemVersion } from "~/domain/item-versions.server";

// POST /v1/item/{id}/versions/{versionId}/restore → { version }: that version becomes the item's
// current file again; no version is deleted (X-Editor-Token).
const route = versionActionRoute(restoreItemVersion);

export const loader = route.loader;
export const action = route.action;
