import { apiRoute, endpoint } from "~/api/route.server";
import { requireEditorAccess } from "~/auth/editor-token.server";
import { commitItemVersion } from "~/domain/item-versions.server";
import { versionParamsSchema } from "~/domain/schemas";

// POST /v1/item/{id}/versions/{versionId}/commit → { version }: checks the uploaded .ply and makes it
// the item's current file (X-Editor-Token; garbage is a 400 and changes nothing).
const route = apiRoute({
  POST: endpoint({
    auth: "none",
    params: versionParamsSchema,
    handler: async ({ params, request }) => {
      const { user, item } = await requireEditorAccess(request, params.id);
      return commitItemVersion(item, params.versionId, user.id);
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
