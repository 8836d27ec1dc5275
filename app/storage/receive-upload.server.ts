import { once } from "node:events";
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { finished } from "node:stream/promises";
import { randomUUID } from "node:crypto";
import { declaredTypeMismatchMessage, detectModelFormat, formatMatchesDeclaredType, type DeclaredModelType } from "~/formats/model-format";
import { AppError } from "~/lib/errors";
import { drainBody } from "~/lib/drain-body.server";
import type { LocalDiskStorage } from "./local-disk.server";
import { keyOwnerExists, ownerOfKey } from "./upload-owner.server";

const HEAD_BYTES = 64 * 1024;
/**
 * Bytes gathered before each write to the file: one write per MiB rather than one per network chunk (64 KiB
 * at most). Each write is a call into the thread pool, ~0.2 ms of the web process's own time on our machines:
 * 11 s of the two web processes' CPU in 90 s of the load bench's 50 creators (issue 37). The gathered chunks go
 * to the file in one vectored write, as they are: copying them into one buffer first was another 3.6 % of the
 * web processes' busy time under the creators.
 */
const WRITE_BYTES = 1024 * 1024;

const ownerGone = () => new AppError("not_found", "This upload link is for an item or account that no longer exists.");

/**
 * Writes chunks in one vectored write (corked, the file stream hands them to writev together), waiting for the
 * file to take them when its buffer is full. The stream always has an 'error' listener (see openPartFile), so a
 * failed write rejects here instead of killing the process (issue 21).
 */
async function writeChunks(out: WriteStream, chunks: Uint8Array[]): Promise<void> {
  if (out.errored) throw out.errored;
  if (out.destroyed) throw new Error("the upload's file was closed");
  out.cork();
  let full = false;
  for (const chunk of chunks) full = !out.write(chunk) || full;
  out.uncork();
  if (full) await once(out, "drain");
}

/** A temporary file for the upload, with an 'error' listener for its whole life. */
function openPartFile(temp: string): WriteStream {
  const out = createWriteStream(temp, { flags: "wx" });
  // Errors are read from `out.errored` and from the awaited operations; this listener only keeps a
  // late error (after we stopped waiting) from becoming an unhandled 'error' event.
  out.on("error", () => undefined);
  return out;
}

/** Closes the file (waiting until its descriptor is released) and removes it. */
async function discard(out: WriteStream, temp: string): Promise<void> {
  out.destroy();
  await finished(out).catch(() => undefined);
  await rm(temp, { force: true });
}

/**
 * Receives a signed PUT for the local-disk driver: streams to a temporary file, enforces the signed
 * size limit, and (when the URL names an expected model type) checks the magic bytes before the
 * file is kept. The item or user the key belongs to must exist before and after the bytes arrive
 * (issue 17 item 9). A rejected or interrupted upload leaves nothing behind.
 */
export async function receiveUpload(input: {
  store: LocalDiskStorage;
  key: string;
  body: ReadableStream<Uint8Array> | null;
  maxBytes?: number;
  expect?: DeclaredModelType;
}): Promise<number> {
  if (!input.body) throw new AppError("invalid_input", "The upload has no body.");
  if (!(await keyOwnerExists(input.key))) {
    await drainBody(input.body);
    throw ownerGone();
  }
  const target = input.store.pathOf(input.key);
  await mkdir(path.dirname(target), { recursive: true });
  const temp = `${target}.${randomUUID()}.part`;
  const out = openPartFile(temp);
  const head: Uint8Array[] = [];
  let headBytes = 0;
  let total = 0;
  let gathered: Uint8Array[] = [];
  let gatheredBytes = 0;
  const writeGathered = async () => {
    if (gatheredBytes === 0) return;
    const chunks = gathered;
    gathered = [];
    gatheredBytes = 0;
    await writeChunks(out, chunks);
  };
  const reader = input.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read().catch(() => {
        // The client went away mid-upload (expected with resumable uploads: the part is sent again).
        throw new AppError("invalid_input", "The upload was interrupted before the whole file arrived.");
      });
      if (done) break;
      total += value.length;
      if (input.maxBytes !== undefined && total > input.maxBytes) {
        reader.releaseLock();
        await drainBody(input.body);
        throw new AppError("payload_too_large", "The file is larger than the upload limit.");
      }
      if (headBytes < HEAD_BYTES) {
        head.push(value);
        headBytes += value.length;
      }
      gathered.push(value);
      gatheredBytes += value.length;
      if (gatheredBytes >= WRITE_BYTES) await writeGathered();
    }
    await writeGathered();
    out.end();
    await finished(out);
    if (input.expect) {
      const bytes = Buffer.concat(head).subarray(0, HEAD_BYTES);
      const format = detectModelFormat(bytes, `upload.${input.expect}`);
      if (!formatMatchesDeclaredType(format, input.expect)) {
        throw new AppError("invalid_file", declaredTypeMismatchMessage(input.expect, format));
      }
    }
    await rename(temp, target);
  } catch (error) {
    reader.cancel().catch(() => undefined);
    await discard(out, temp);
    // The item or user was deleted while the bytes arrived (its folder went with it): say so.
    if (!(error instanceof AppError) && !(await keyOwnerExists(input.key))) throw ownerGone();
    throw error;
  }
  // Deleted while we wrote: the deletion already cleaned its folder; remove what we added since.
  if (!(await keyOwnerExists(input.key))) {
    const owner = ownerOfKey(input.key);
    if (owner) await input.store.deletePrefix(owner.prefix);
    throw ownerGone();
  }
  return total;
}
