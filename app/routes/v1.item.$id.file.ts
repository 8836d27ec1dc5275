import { createReadableStreamFromReadable } from "@remix-run/node";
import { apiRoute, endpoint } from "~/api/route.server";
import { env } from "~/env.server";
import { openItemFile } from "~/domain/model-files.server";
import { idParamsSchema } from "~/domain/schemas";
import { xorStream } from "~/lib/xor-stream.server";
import { xorKeyFromString } from "~/lib/xor";

// GET /v1/item/{id}/file — the model bytes, XOR-obfuscated with the configured key (SPEC §7).
const route = apiRoute({
  GET: endpoint({
    auth: "optional",
    params: idParamsSchema,
    handler: async ({ user, params, request }) => {
      const file = await openItemFile({ itemId: params.id, viewerId: user?.id ?? null });
      const headers = {
        ETag: file.etag,
        "Cache-Control": "private, no-cache",
        Vary: "Authorization",
      };
      if (request.headers.get("If-None-Match") === file.etag) {
        file.stream.destroy();
        return new Response(null, { status: 304, headers });
      }
      const body = file.stream.pipe(xorStream(xorKeyFromString(env().MODEL_XOR_KEY)));
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
