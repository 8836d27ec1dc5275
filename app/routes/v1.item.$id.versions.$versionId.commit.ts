import { versionActionRoute } from "~/api/version-action-route.server";
import { commitItemVersion } from "~/domain/item-versions.server";

// POST /v1/item/{id}/versions/{versionId}/commit → { version }: checks the uploaded .ply and makes it
// the item's current file (X-Editor-Token; garbage is a 400 and changes nothing).
const route = versionActionRoute(commitItemVersion);

export const loader = route.loader;
export const action = route.action;
