import { z } from "zod";
import { apiRoute, endpoint } from "~/api/route.server";
import { idParamsSchema } from "~/domain/schemas";
import { createShareLink, listShareLinks, SHARE_LINK_LABEL_MAX } from "~/domain/share-links.server";

// GET /v1/item/{id}/share lists the model's share links with what is left of the link credits; POST {label?}
// makes one, spending a link credit (SPEC §9).
const createShareLinkBodySchema = z
  .object({ label: z.string().trim().max(SHARE_LINK_LABEL_MAX, `must be at most ${SHARE_LINK_LABEL_MAX} characters`).nullable().optional() })
  .strict();

const route = apiRoute({
  GET: endpoint({
    auth: "required",
    params: idParamsSchema,
    handler: ({ user, params }) => listShareLinks({ itemId: params.id, ownerId: user.id }),
  }),
  POST: endpoint({
    auth: "required",
    params: idParamsSchema,
    body: createShareLinkBodySchema,
    handler: ({ user, params, body }) => createShareLink({ itemId: params.id, ownerId: user.id, label: body.label }),
  }),
});

export const loader = route.loader;
export const action = route.action;
