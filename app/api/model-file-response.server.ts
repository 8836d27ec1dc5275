import { createHash } from "node:crypto";
import { env } from "~/env.server";
import type { OpenedModelFile } from "~/domain/model-files.server";
import { webStreamOf } from "~/lib/web-stream.server";
import { xorStream } from "~/lib/xor-stream.server";
import { xorKeyFromString } from "~/lib/xor";

/**
 * The response for model bytes (SPEC §7): XOR-obfuscated with the configured key, with an ETag that
 * a second view answers with 304. Access has been checked before the file was opened.
 */
export function modelFileResponse(file: OpenedModelFile, request: Request): Response {
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
  return new Response(webStreamOf(file.stream, xorStream(xorKeyFromString(key))), {
    status: 200,
    headers: {
      ...headers,
      "Content-Type": "application/octet-stream",
      "Content-Length": String(file.size),
      "Content-Disposition": `attachment; filename="${file.fileName}"`,
    },
  });
}
