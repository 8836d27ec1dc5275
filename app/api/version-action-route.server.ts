import { requireEditorAccess } from "~/auth/editor-token.server";
import type { Item } from "~/db.server";
import type { ItemVersionDto } from "~/domain/item-version-presenter";
import { versionParamsSchema } from "~/domain/schemas";
import { apiRoute, endpoint } from "./route.server";

type VersionAction = (item: Item, versionId: string, actorId: string) => Promise<{ version: ItemVersionDto }>;

/**
 * POST /v1/item/{id}/versions/{versionId}/{commit|restore} → { version }: the editor's version actions, allowed
 * with an X-Editor-Token for the owner's item (docs/editor-token.md).
 */
export function versionActionRoute(act: VersionAction) {
  return apiRoute({
    POST: endpoint({
      auth: "none",
      params: versionParamsSchema,
      handler: async ({ params, request }) => {
        const { user, item } = await requireEditorAccess(request, params.id);
        return act(item, params.versionId, user.id);
      },
    }),
  });
}
