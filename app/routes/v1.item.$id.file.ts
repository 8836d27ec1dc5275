import { createHash } from "node:crypto";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { z } from "zod";
import { apiRoute, endpoint } from "~/api/route.server";
import { env } from "~/env.server";
import { openItemFile } from "~/domain/model-files.server";
import { idParamsSchema } from "~/domain/schemas";
import { xorStream } from "~/lib/xor-stream.server";
import { xorKeyFromString } from "~/lib/xor";

const fileQuerySchema = z
  .object({
    /** `?original=true`: the file as uploaded (or as the scan made it), for its owner; default: what viewers get. */
    original: z.enum(["true", "false", "1", "0"]).optional(),
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
      const file = await openItemFile({ itemId: params.id, viewerId: user?.id ?? null, variant: original ? "original" : "delivered" });
      const key = env().MODEL_XOR_KEY;
      // The body depends on the XOR key too: a new key must not be answered from an old cache.
      const etag = `${file.etag.slice(0, -1)}-${createHash("sha256").update(key).digest("hex").slice(0, 8)}"`;
      // Every use revalidates (no-cache), and access is checked before the ETag is compared, so the
      // browser may keep the bytes across sign-ins and token refreshes: no Vary on Authorization.
      const headers = { ETag: etag, "Cache-Control": "private, no-cache" };
      const match = request.headers.get("If-None-Match");
      if (match && match.split(",").some((tag) => tag.trim() === etag)) {
        file.stream.destroy();
        return new Response(null, { status: 304, headers });
      }
      const body = file.stream.pipe(xorStream(xorKeyFromString(key)));
      return new Response(createReadableStreamFromReadable(body), {
        status: 200,
        headers: {
          ...headers,
          "Content-Type": "application/octet-stream",
          "Content-Length": String(file.size),
          "Content-Disposition": `attachment; filename="${file.fileName}"`,
        },
      });
    },
  }),
});

export const loader = route.loader;
export const action = route.action;
