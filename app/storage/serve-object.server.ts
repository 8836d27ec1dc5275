import { webStreamOf } from "~/lib/web-stream.server";
import type { StorageDriver } from "./driver";

/**
 * Answers a GET or HEAD with a stored object: ETag and If-None-Match, single byte ranges (video players and resumed
 * downloads ask for them), and a file name to save it under when given. The caller has checked who may read it;
 * `null` when the object does not exist.
 */
export async function serveStoredObject({
  store,
  key,
  request,
  headers: extra,
  downloadName,
}: {
  store: Pick<StorageDriver, "stat" | "createReadStream">;
  key: string;
  request: Request;
  headers: Record<string, string>;
  downloadName?: string | null;
}): Promise<Response | null> {
  const stat = await store.stat(key);
  if (!stat) return null;
  const headers = new Headers({ "Accept-Ranges": "bytes", ETag: stat.etag, ...extra });
  if (downloadName) headers.set("Content-Disposition", `attachment; filename="${downloadName.replace(/["\\\r\n]/g, "")}"`);
  if (request.headers.get("If-None-Match") === stat.etag) return new Response(null, { status: 304, headers });
  const range = request.headers.get("Range")?.match(/^bytes=(\d+)-(\d*)$/);
  if (range) {
    const start = Number(range[1]);
    const end = range[2] ? Math.min(Number(range[2]), stat.size - 1) : stat.size - 1;
    if (start > end) return new Response(null, { status: 416, headers: { "Content-Range": `bytes */${stat.size}` } });
    headers.set("Content-Range", `bytes ${start}-${end}/${stat.size}`);
    headers.set("Content-Length", String(end - start + 1));
    if (request.method === "HEAD") return new Response(null, { status: 206, headers });
    return new Response(webStreamOf(await store.createReadStream(key, { start, end })), { status: 206, headers });
  }
  headers.set("Content-Length", String(stat.size));
  if (request.method === "HEAD") return new Response(null, { status: 200, headers });
  return new Response(webStreamOf(await store.createReadStream(key)), { status: 200, headers });
}
