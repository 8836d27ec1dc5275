import { z } from "zod";
import { apiRoute, endpoint } from "~/api/route.server";
import { issueEditorToken } from "~/auth/editor-token.server";
import { uuidSchema } from "~/domain/schemas";

const jwtQuerySchema = z.object({ item_id: uuidSchema.optional() }).strict();

// GET /v1/supersplat/jwt[?item_id=] → { jwt, expires_at }: the splat editor's short-lived token
// (SPEC §7; claims in docs/editor-token.md). Only for an item the caller owns.
const route = apiRoute({
  GET: endpoint({
    auth: "required",
    query: jwtQuerySchema,
    handler: ({ user, query }) => issueEditorToken({ user, itemId: query.item_id }),
  }),
});

export const loader = route.loader;
export const action = route.action;
