import { createWriteStream } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { detectModelFormat, formatMatchesDeclaredType, type DeclaredModelType } from "~/lib/model-format";
import { AppError } from "~/domain/errors";
import { drainBody } from "~/lib/drain-body.server";
import type { LocalDiskStorage } from "./local-disk.server";

const HEAD_BYTES = 64 * 1024;

/**
 * Receives a signed PUT for the local-disk driver: streams to a temporary file, enforces the signed
 * size limit, and (when the URL names an expected model type) checks the magic bytes before the
 * file is kept. A rejected upload leaves nothing behind.
 */
export async function receiveUpload(input: {
  store: LocalDiskStorage;
  key: string;
  body: ReadableStream<Uint8Array> | null;
  maxBytes?: number;
  expect?: DeclaredModelType;
}): Promise<number> {
  if (!input.body) throw new AppError("invalid_input", "The upload has no body.");
  const target = input.store.pathOf(input.key);
  await mkdir(path.dirname(target), { recursive: true });
  const temp = `${target}.${randomUUID()}.part`;
  const out = createWriteStream(temp);
  const head: Uint8Array[] = [];
  let headBytes = 0;
  let total = 0;
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
      if (!out.write(value)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
    }
    await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
    if (input.expect) {
      const bytes = Buffer.concat(head).subarray(0, HEAD_BYTES);
      const format = detectModelFormat(bytes, `upload.${input.expect}`);
      if (!formatMatchesDeclaredType(format, input.expect)) {
        throw new AppError("invalid_file", `The file's contents are not a valid .${input.expect} model.`);
      }
    }
    await rename(temp, target);
    return total;
  } catch (error) {
    reader.cancel().catch(() => {});
    out.destroy();
    await rm(temp, { force: true });
    throw error;
  }
}
