import { apiRoute, endpoint } from "~/api/route.server";
import { requireEditorAccess } from "~/auth/editor-token.server";
import { restoreItemVersion } from "~/domain/item-versions.server";
import { versionParamsSchema } from "~/domain/schemas";

// POST /v1/item/{id}/versions/{versionId}/restore → { version }: that version becomes the item's
// current file again; no version is deleted (X-Editor-Token).
const route = apiRoute({
  POST: endpoint({
    auth: "none",
    params: versionParamsSchema,
    handler: async ({ params, request }) => {
      const { user, item } = await requireEditorAccess(request, params.id);
      return restoreItemVersion(item, params.versionId, user.id);
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
