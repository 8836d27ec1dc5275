import { z } from "zod";
import { apiRoute, endpoint } from "~/api/route.server";
import { uuidSchema } from "~/domain/schemas";
import { revokeShareLink } from "~/domain/share-links.server";

// DELETE /v1/item/{id}/share/{linkId}: turns a share link off (the credit it cost is not given back).
const route = apiRoute({
  DELETE: endpoint({
    auth: "required",
    params: z.object({ id: uuidSchema, linkId: uuidSchema }),
    handler: async ({ user, params }) => {
      await revokeShareLink({ itemId: params.id, linkId: params.linkId, ownerId: user.id });
      return { link_id: params.linkId, revoked: true };
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
