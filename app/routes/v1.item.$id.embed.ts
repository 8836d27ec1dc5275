import { z } from "zod";
import { apiRoute, endpoint } from "~/api/route.server";
import { createEmbed, EMBED_LABEL_MAX, listEmbeds } from "~/domain/embeds.server";
import { idParamsSchema } from "~/domain/schemas";

// SPEC §7: GET /v1/item/{id}/embed lists the owner's registered embeds with their iframe code; POST {label?}
// registers one, counting against the plan's embed quota (§9).
const createEmbedBodySchema = z
  .object({ label: z.string().trim().max(EMBED_LABEL_MAX, `must be at most ${EMBED_LABEL_MAX} characters`).nullable().optional() })
  .strict();

const route = apiRoute({
  GET: endpoint({
    auth: "required",
    params: idParamsSchema,
    handler: ({ user, params }) => listEmbeds({ itemId: params.id, ownerId: user.id }),
  }),
  POST: endpoint({
    auth: "required",
    params: idParamsSchema,
    body: createEmbedBodySchema,
    handler: ({ user, params, body }) => createEmbed({ itemId: params.id, ownerId: user.id, label: body.label }),
  }),
});

export const loader = route.loader;
export const action = route.action;
