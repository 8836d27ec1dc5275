import { z } from "zod";
import { apiRoute, endpoint } from "~/api/route.server";
import { revokeEmbed } from "~/domain/embeds.server";
import { uuidSchema } from "~/domain/schemas";

// DELETE /v1/item/{id}/embed/{embedId}: revokes a registered embed (its frame shows the poster; its quota place frees).
const route = apiRoute({
  DELETE: endpoint({
    auth: "required",
    params: z.object({ id: uuidSchema, embedId: uuidSchema }),
    handler: async ({ user, params }) => {
      await revokeEmbed({ itemId: params.id, embedId: params.embedId, ownerId: user.id });
      return { embed_id: params.embedId, revoked: true };
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
