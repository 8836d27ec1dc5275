/**
 * Compact delivery copies of gaussian splats (issue 6 "Delivery"). Viewers download a .sog bundle
 * (PlayCanvas SOG: WebP-compressed attributes, ~12.5 bytes a splat against .ply's 68) made on the CPU
 * by `@playcanvas/splat-transform`; the owner keeps the original. .sog rather than .spz because the
 * converter writes SPZ v4, which Spark 2.2 cannot read; converting also makes SPZ v4 uploads viewable.
 *
 * `makeDeliveryCopy` is file-in/file-out (the scan worker's export stage calls it too);
 * `createItemDeliveryCopy` does it for an item's stored file and is what the delivery job runs.
 */
import { createWriteStream } from "node:fs";
import { mkdtemp, open, readFile, rm, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { db } from "~/db.server";
import { expectedKsplatLength, expectedPlyLength, isSplatFormat, type ModelFormat } from "~/lib/model-format";
import { logger } from "~/lib/logger.server";
import { storage } from "~/storage/index.server";
import { deliveryCopyKey } from "~/storage/keys";
import { runTool, ToolError } from "~/worker/run-tool.server";
import { inspectSogBundle } from "./sog-bundle.server";

export const DELIVERY_FORMAT = "sog";

/** The file name ending splat-transform reads each of our splat formats by (it goes by the name). */
const INPUT_SUFFIX: Partial<Record<ModelFormat, string>> = {
  ply: ".ply",
  "compressed-ply": ".compressed.ply",
  ksplat: ".ksplat",
  spz: ".spz",
  splat: ".splat",
};

/** Whether a stored model in `format` gets a delivery copy (every splat format except .sog itself). */
export function needsDeliveryCopy(format: string | null | undefined): boolean {
  return isSplatFormat(format) && format in INPUT_SUFFIX;
}

/** A file name for `format` that splat-transform recognises, e.g. "input.compressed.ply". */
export function deliveryInputName(format: ModelFormat, base = "input"): string {
  const suffix = INPUT_SUFFIX[format];
  if (!suffix) throw new Error(`no delivery copy is made from .${format} files`);
  return `${base}${suffix}`;
}

/** Conversion failures caused by the input file (retrying cannot help). */
export class DeliveryCopyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DeliveryCopyError";
  }
}

/** The path of splat-transform's CLI (also run by splat-convert.server.ts). */
export function splatTransformCli(): string {
  // The package exports only its library; its CLI sits next to it (bin/cli.mjs).
  const library = createRequire(import.meta.url).resolve("@playcanvas/splat-transform");
  return path.resolve(path.dirname(library), "../bin/cli.mjs");
}

/**
 * splat-transform pads a truncated .ply or .ksplat with zeros instead of failing (the copy would hide
 * the damage): check their length against their headers ourselves.
 */
async function assertCompleteInput(inputPath: string, size: number): Promise<void> {
  const name = path.basename(inputPath);
  if (name.endsWith(".splat") && size % 32 !== 0) throw new DeliveryCopyError(`${name} is truncated (not a whole number of 32-byte splats)`);
  if (!name.endsWith(".ply") && !name.endsWith(".ksplat")) return;
  const handle = await open(inputPath, "r");
  let head: Uint8Array;
  try {
    const buffer = Buffer.alloc(Math.min(size, 64 * 1024));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    head = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  const expected = name.endsWith(".ksplat") ? expectedKsplatLength(head) : expectedPlyLength(head);
  if (expected !== null && size < expected) throw new DeliveryCopyError(`${name} is truncated: ${size} of ${expected} bytes`);
}

export interface DeliveryCopy {
  bytes: number;
  splats: number;
  ms: number;
}

/**
 * Converts the splat at `inputPath` (its name must end in the format's extension, see
 * `deliveryInputName`) into a .sog bundle at `outputPath`, then reads the bundle back. Runs the CLI
 * with an argument array (no shell) in its own process group, CPU only.
 */
export async function makeDeliveryCopy({
  inputPath,
  outputPath,
  expectedSplats,
  timeoutMs,
  signal,
}: {
  inputPath: string;
  outputPath: string;
  /** When known (e.g. the scan's splat count), the bundle must hold exactly this many. */
  expectedSplats?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}): Promise<DeliveryCopy> {
  if (!outputPath.endsWith(".sog")) throw new Error("the delivery copy's path must end in .sog");
  const input = await stat(inputPath);
  await assertCompleteInput(inputPath, input.size);
  // About 1 s per MB on one core, with a generous floor for start-up.
  const limit = timeoutMs ?? 120_000 + Math.ceil(input.size / 1_000_000) * 2_000;
  let ms: number;
  try {
    ({ ms } = await runTool({
      command: process.execPath,
      args: [splatTransformCli(), "--quiet", "--no-tty", "--gpu", "cpu", "--overwrite", inputPath, outputPath],
      timeoutMs: limit,
      killGraceMs: 2_000,
      signal,
    }));
  } catch (error) {
    if (error instanceof ToolError && (error.reason === "exit" || error.reason === "timeout")) {
      const detail = error.output.trim().split("\n").filter(Boolean).slice(-3).join(" ").slice(0, 400);
      throw new DeliveryCopyError(`splat-transform could not convert ${path.basename(inputPath)}: ${error.message}${detail ? ` — ${detail}` : ""}`);
    }
    throw error;
  }
  let summary;
  try {
    summary = inspectSogBundle(await readFile(outputPath));
  } catch (error) {
    throw new DeliveryCopyError(`the .sog written for ${path.basename(inputPath)} is invalid: ${(error as Error).message}`);
  }
  if (expectedSplats !== undefined && summary.splats !== expectedSplats) {
    throw new DeliveryCopyError(`the .sog holds ${summary.splats} splats, ${expectedSplats} were expected`);
  }
  return { bytes: (await stat(outputPath)).size, splats: summary.splats, ms };
}

export type ItemDeliveryOutcome =
  | { status: "created"; key: string; bytes: number; splats: number }
  | { status: "skipped"; reason: string }
  | { status: "failed"; reason: string };

/**
 * Makes the delivery copy of an item's stored file `sourceKey` and records it on the item, unless
 * the item's file has changed since (a stale job) or the copy exists already (a job run twice).
 * A file the converter rejects is not retried: viewers keep getting the original.
 */
export async function createItemDeliveryCopy({ itemId, sourceKey }: { itemId: string; sourceKey: string }): Promise<ItemDeliveryOutcome> {
  const item = await db().item.findUnique({
    where: { id: itemId },
    select: { fileKey: true, fileFormat: true, deliveryKey: true, deliverySourceKey: true },
  });
  if (!item || item.fileKey !== sourceKey) return { status: "skipped", reason: "the item's file has changed" };
  if (item.deliveryKey && item.deliverySourceKey === sourceKey) return { status: "skipped", reason: "the delivery copy exists" };
  if (!needsDeliveryCopy(item.fileFormat)) return { status: "skipped", reason: `no delivery copy for .${item.fileFormat} files` };

  const store = storage();
  const workDir = await mkdtemp(path.join(os.tmpdir(), "scanroom-delivery-"));
  try {
    const inputPath = path.join(workDir, deliveryInputName(item.fileFormat as ModelFormat));
    const outputPath = path.join(workDir, "delivery.sog");
    await pipeline(await store.createReadStream(sourceKey), createWriteStream(inputPath));
    let copy: DeliveryCopy;
    try {
      copy = await makeDeliveryCopy({ inputPath, outputPath });
    } catch (error) {
      if (!(error instanceof DeliveryCopyError)) throw error;
      logger.warn("no delivery copy for this model", { itemId, reason: error.message });
      return { status: "failed", reason: error.message };
    }
    const key = deliveryCopyKey(itemId, sourceKey, DELIVERY_FORMAT);
    await store.write(key, await readFile(outputPath), { contentType: "application/octet-stream" });
    // Compare-and-set on the source: a new upload or scan result in the meantime wins.
    const { count } = await db().item.updateMany({
      where: { id: itemId, fileKey: sourceKey },
      data: { deliveryKey: key, deliverySize: BigInt(copy.bytes), deliveryFormat: DELIVERY_FORMAT, deliverySourceKey: sourceKey },
    });
    if (count === 0) {
      await store.delete(key);
      return { status: "skipped", reason: "the item's file has changed" };
    }
    if (item.deliveryKey && item.deliveryKey !== key) await store.delete(item.deliveryKey);
    logger.info("delivery copy made", { itemId, bytes: copy.bytes, splats: copy.splats, ms: copy.ms });
    return { status: "created", key, bytes: copy.bytes, splats: copy.splats };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
