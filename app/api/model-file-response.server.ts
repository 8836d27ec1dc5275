import { createHash } from "node:crypto";
import { env } from "~/env.server";
import type { ModelFile } from "~/domain/model-files.server";
import { ByteBudgetLru } from "~/lib/byte-budget-lru";
import { webStreamOf } from "~/lib/web-stream.server";
import { xorStream } from "~/lib/xor-stream.server";
import { xorInPlace, xorKeyFromString } from "~/lib/xor";
import { storage } from "~/storage/index.server";

/**
 * The response for model bytes (SPEC §7): XOR-obfuscated with the configured key, with an ETag that
 * a second view answers with 304. Access has been checked before the file was found.
 *
 * A file up to an eighth of MODEL_BYTES_CACHE_MB is read whole, XORed once and held in memory, least
 * recently used out first (docs/decisions/058-model-bytes-held.md): a popular model's download is one
 * write of bytes already made, not a read from storage, an XOR pass and ~60 stream chunks per download,
 * each of which waited its turn on a busy event loop. Held bytes are found by storage key and ETag, so a
 * changed object is read again; larger files are streamed.
 */
export async function modelFileResponse(file: ModelFile, request: Request): Promise<Response> {
  const key = env().MODEL_XOR_KEY;
  // The body depends on the XOR key too: a new key must not be answered from an old cache.
  const etag = `${file.etag.slice(0, -1)}-${createHash("sha256").update(key).digest("hex").slice(0, 8)}"`;
  // Every use revalidates (no-cache), and access is checked before the ETag is compared, so the
  // browser may keep the bytes across sign-ins and token refreshes: no Vary on Authorization.
  const headers = { ETag: etag, "Cache-Control": "private, no-cache" };
  const match = request.headers.get("If-None-Match");
  if (match && match.split(",").some((tag) => tag.trim() === etag)) return new Response(null, { status: 304, headers });
  const inMemory = await heldBytes()?.bytesOf(file, etag, key);
  const body = inMemory ? streamOfHeld(inMemory) : webStreamOf(await storage().createReadStream(file.key), xorStream(xorKeyFromString(key)));
  return new Response(body, {
    status: 200,
    headers: {
      ...headers,
      "Content-Type": "application/octet-stream",
      "Content-Length": String(inMemory ? inMemory.byteLength : file.size),
      "Content-Disposition": `attachment; filename="${file.fileName}"`,
    },
  });
}

/**
 * Held bytes as a body, sent as they are: `new Response(bytes)` copies them first (undici's extractBody), a copy
 * of the whole file per download (4.2 s of the web processes' CPU in a minute of the load bench, issue 37).
 */
function streamOfHeld(bytes: Uint8Array<ArrayBuffer>): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

let held: HeldModelBytes | null | undefined;

/** This process's held model bytes (null when MODEL_BYTES_CACHE_MB is 0). */
function heldBytes(): HeldModelBytes | null {
  if (held === undefined) {
    const maxBytes = env().MODEL_BYTES_CACHE_MB * 1024 * 1024;
    held = maxBytes > 0 ? new HeldModelBytes(maxBytes) : null;
  }
  return held;
}

/** XORed model files in memory; the downloads of one file that miss at once share one read. */
export class HeldModelBytes {
  readonly maxEntryBytes: number;
  private readonly files: ByteBudgetLru<Uint8Array<ArrayBuffer>>;
  private readonly reading = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();

  constructor(
    maxBytes: number,
    // Both drivers read into memory of their own (never a SharedArrayBuffer).
    private readonly read: (key: string, length: number) => Promise<Uint8Array<ArrayBuffer>> = (key, length) =>
      storage().readHead(key, length) as Promise<Uint8Array<ArrayBuffer>>,
  ) {
    this.maxEntryBytes = Math.floor(maxBytes / 8);
    this.files = new ByteBudgetLru(maxBytes, (bytes) => bytes.byteLength);
  }

  /**
   * The file's bytes XORed with `xorKey`: held ones, or read whole (and held when they are the size the
   * ETag was taken with); null for a file over `maxEntryBytes`, which the caller streams.
   */
  async bytesOf(file: ModelFile, etag: string, xorKey: string): Promise<Uint8Array<ArrayBuffer> | null> {
    if (file.size > this.maxEntryBytes) return null;
    const id = `${file.key} ${etag}`;
    const found = this.files.get(id);
    if (found) return found;
    let read = this.reading.get(id);
    if (!read) {
      read = this.read(file.key, file.size)
        .then((bytes) => {
          xorInPlace(bytes, xorKeyFromString(xorKey), 0);
          if (bytes.byteLength === file.size) this.files.set(id, bytes);
          return bytes;
        })
        .finally(() => this.reading.delete(id));
      this.reading.set(id, read);
    }
    return read;
  }

  /** The bytes held now. */
  get bytes(): number {
    return this.files.bytes;
  }
}
