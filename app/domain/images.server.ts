import { detectImageType, IMAGE_MAX_BYTES, type ImageMimeType } from "~/lib/image-rules";
import { webStreamOf } from "~/lib/web-stream.server";
import { storage } from "~/storage/index.server";
import { isSafeKey } from "~/storage/keys";
import { invalidFile, invalidInput, notFound } from "~/lib/errors";

/**
 * Small images we store and serve ourselves (avatars, model thumbnails): the browser PUTs to a signed
 * URL limited to 2 MB, then names the path it got; we accept it only after checking its size and
 * magic bytes (jpeg, png, webp, gif — SPEC §5).
 */
const UPLOAD_URL_SECONDS = 15 * 60;

export async function createImageUploadUrl({ key }: { key: string }) {
  const url = await storage().createUploadUrl({ key, expiresInSeconds: UPLOAD_URL_SECONDS, maxBytes: IMAGE_MAX_BYTES });
  return { path: key, url };
}

/** Checks an uploaded image under `prefix`; a refused file is deleted. Returns its type. */
export async function acceptUploadedImage({ key, prefix }: { key: string; prefix: string }): Promise<ImageMimeType> {
  if (!key.startsWith(prefix) || !isSafeKey(key)) throw invalidInput("path is not an upload link of yours");
  const stat = await storage().stat(key);
  if (!stat) throw invalidInput("Nothing was uploaded to this path yet.");
  const refuse = async (message: string) => {
    await storage().delete(key);
    return invalidFile(message);
  };
  if (stat.size > IMAGE_MAX_BYTES) throw await refuse("The image is larger than 2 MB.");
  const type = detectImageType(await storage().readHead(key, 16));
  if (!type) throw await refuse("The file is not a JPEG, PNG, WebP or GIF image.");
  return type;
}

/** Streams a stored image with its detected type; `immutable` when the URL names this exact version. */
export async function serveImage({ key, request, immutable }: { key: string; request: Request; immutable: boolean }) {
  const stat = await storage().stat(key);
  if (!stat) throw notFound("Image");
  const type = detectImageType(await storage().readHead(key, 16)) ?? "application/octet-stream";
  const headers = new Headers({
    "Content-Type": type,
    ETag: stat.etag,
    "Cache-Control": immutable ? "private, max-age=86400" : "private, no-cache",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'",
  });
  if (request.headers.get("If-None-Match") === stat.etag) return new Response(null, { status: 304, headers });
  headers.set("Content-Length", String(stat.size));
  if (request.method === "HEAD") return new Response(null, { status: 200, headers });
  return new Response(webStreamOf(await storage().createReadStream(key)), { status: 200, headers });
}
