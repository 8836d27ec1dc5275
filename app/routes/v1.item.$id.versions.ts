import { apiRoute, endpoint } from "~/api/route.server";
import { requireEditorAccess } from "~/auth/editor-token.server";
import { listItemVersions, startItemVersion } from "~/domain/item-versions.server";
import { idParamsSchema } from "~/domain/schemas";

// The clean-up editor's versions of a splat item; every call carries the X-Editor-Token header
// (docs/editor-token.md). GET → { versions }; POST → { version_id, path, url }: PUT the .ply there,
// then POST /v1/item/{id}/versions/{versionId}/commit.
const route = apiRoute({
  GET: endpoint({
    auth: "none",
    params: idParamsSchema,
    handler: async ({ params, request }) => listItemVersions((await requireEditorAccess(request, params.id)).item),
  }),
  POST: endpoint({
    auth: "none",
    params: idParamsSchema,
    handler: async ({ params, request }) => startItemVersion((await requireEditorAccess(request, params.id)).item),
  }),
});

export const loader = route.loader;
export const action = route.action;
