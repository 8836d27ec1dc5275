import { apiRoute, endpoint } from "~/api/route.server";
import { requireEditorAccess } from "~/auth/editor-token.server";
import { readEditableSplats } from "~/domain/item-versions.server";
import { idParamsSchema } from "~/domain/schemas";

// GET /v1/item/{id}/splats → the current version as a standard 3DGS binary .ply, for the clean-up
// editor (X-Editor-Token). Other splat formats are converted on the server.
const route = apiRoute({
  GET: endpoint({
    auth: "none",
    params: idParamsSchema,
    handler: async ({ params, request }) => {
      const bytes = await readEditableSplats((await requireEditorAccess(request, params.id)).item);
      return new Response(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as BodyInit, {
        headers: { "Content-Type": "application/octet-stream", "Content-Length": String(bytes.length), "Cache-Control": "private, no-store" },
      });
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
