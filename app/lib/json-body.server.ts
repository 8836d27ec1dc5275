import { AppError } from "~/lib/errors";
import { drainBody, drainReader } from "./drain-body.server";
import { exceedsJsonDepth, MAX_JSON_DEPTH } from "./json-depth";

/**
 * The one reader of JSON request bodies: the /v1 API (app/api/route.server.ts), the site's POST /session and
 * the webhooks (Stripe's, Shopify's). A body over `maxBytes` is refused with 413 payload_too_large, one nested
 * deeper than MAX_JSON_DEPTH with 400 json_too_deep, both before anything parses it (docs/decisions/039).
 */

/** A body over its limit is read and discarded up to this size before the 413 (larger: the connection closes). */
const DRAIN_CAP_BYTES = 8 * 1024 * 1024;

/** The body as text, within the limits; undefined when it is empty. For callers that need the raw text (signatures). */
export async function readJsonText(request: Request, { maxBytes }: { maxBytes: number }): Promise<string | undefined> {
  const text = await readLimitedText(request, maxBytes);
  if (text !== undefined && exceedsJsonDepth(text, MAX_JSON_DEPTH)) {
    throw new AppError("json_too_deep", `The request body nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep.`);
  }
  return text;
}

/** The body parsed, within the limits; undefined when it is empty. A body must be sent as JSON (415) and be valid JSON (400). */
export async function readJsonBody(request: Request, { maxBytes }: { maxBytes: number }): Promise<unknown> {
  const text = await readJsonText(request, { maxBytes });
  if (text === undefined) return undefined;
  const type = request.headers.get("Content-Type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw new AppError("unsupported_media_type", "Send the request body as JSON (Content-Type: application/json).");
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("invalid_json", "The request body is not valid JSON.");
  }
}

async function readLimitedText(request: Request, maxBytes: number): Promise<string | undefined> {
  const tooLarge = () => new AppError("payload_too_large", `The request body is larger than ${maxBytes} bytes.`);
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (declared > maxBytes) {
    // Read the rest (within reason) so the client receives the 413 instead of a reset connection (issue 17 item 8).
    if (declared <= DRAIN_CAP_BYTES) await drainBody(request.body, DRAIN_CAP_BYTES);
    throw tooLarge();
  }
  const reader = request.body?.getReader();
  if (!reader) return undefined;
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > maxBytes) {
      // A chunked body gives no length up front: the same, once past the limit.
      await drainReader(reader, DRAIN_CAP_BYTES);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return total === 0 ? undefined : Buffer.concat(chunks).toString("utf8");
}
