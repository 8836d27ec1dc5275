import { z } from "zod";
import { apiRoute, endpoint } from "~/api/route.server";
import { modelFileResponse } from "~/api/model-file-response.server";
import { itemModelFile } from "~/domain/model-files.server";
import { idParamsSchema } from "~/domain/schemas";

const fileQuerySchema = z
  .object({
    /** `?original=true`: the file as uploaded (or as the scan made it), for its owner; default: what viewers get. */
    original: z.enum(["true", "false", "1", "0"]).optional(),
    /**
     * `?variant=mesh` / `mesh_lite`: a scan's textured mesh (GLB) or its light level; `coarse`: the coarse level of
     * what viewers get (a large splat's first, fast download; 404 when it has none). For whoever sees the item.
     */
    variant: z.enum(["mesh", "mesh_lite", "coarse"]).optional(),
  })
  .strict();

// GET /v1/item/{id}/file — the model bytes, XOR-obfuscated with the configured key (SPEC §7). Viewers
// get the compact delivery copy of a splat when there is one; the owner can ask for the original.
const route = apiRoute({
  GET: endpoint({
    auth: "optional",
    params: idParamsSchema,
    query: fileQuerySchema,
    handler: async ({ user, params, query, request }) => {
      const original = query.original === "true" || query.original === "1";
      const variant = query.variant ?? (original ? "original" : "delivered");
      const file = await itemModelFile({ itemId: params.id, viewerId: user?.id ?? null, variant });
      return modelFileResponse(file, request);
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
