/**
 * Compact delivery copies of gaussian splats (issue 6 "Delivery"). Viewers download a .sog bundle
 * (PlayCanvas SOG: WebP-compressed attributes, ~12.5 bytes a splat against .ply's 68) made on the CPU
 * by `@playcanvas/splat-transform`; the owner keeps the original. .sog rather than .spz because the
 * converter writes SPZ v4, which Spark 2.2 cannot read; converting also makes SPZ v4 uploads viewable.
 *
 * Large splats also get a coarse copy (issue 20): about a tenth of the splats, no spherical harmonics,
 * also .sog. Viewers show it first (it is ~10x smaller and decodes in a fraction of the time), then
 * replace it by the delivery copy. It belongs to the delivery copy: see `coarseObject`.
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
import { expectedPlyLength } from "~/formats/ply";
import { expectedKsplatLength, isSplatFormat, type ModelFormat } from "~/formats/model-format";
import { logger } from "~/lib/logger.server";
import { storage } from "~/storage/index.server";
import { deliveryCopyKey } from "~/storage/keys";
import { runTool, ToolError } from "~/tools/run-tool.server";
import { inspectSogBundle } from "~/formats/sog-bundle.server";

export const DELIVERY_FORMAT = "sog";
/** How a coarse copy's key ends (`deliveryCopyKey`), beside its delivery copy's ".sog". */
export const COARSE_KEY_SUFFIX = "coarse.sog";

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

/** Below this many splats no coarse copy is made: the delivery copy itself is small enough. */
const COARSE_MIN_SPLATS = 40_000;
/** The most splats a coarse copy keeps, however large the splat (its point is to arrive fast). */
const COARSE_MAX_SPLATS = 20_000;

/** How many splats the coarse copy of a splat of `splats` splats keeps (a tenth, at most 20k), or null for none. */
export function coarseSplatTarget(splats: number): number | null {
  if (!(splats >= COARSE_MIN_SPLATS)) return null;
  return Math.min(COARSE_MAX_SPLATS, Math.ceil(splats / 10));
}

export interface CoarseCopy {
  bytes: number;
  splats: number;
  ms: number;
}

export interface DeliveryCopy {
  bytes: number;
  splats: number;
  ms: number;
  /** The coarse copy, when one was asked for and the splat is large enough (null when it failed). */
  coarse: CoarseCopy | null;
}

/**
 * Runs splat-transform's CLI (CPU only, argument array, no shell, its own process group, lowest CPU priority) on
 * `inputPath` with `args` after it. An exit with an error or a timeout is the input's fault
 * (DeliveryCopyError); an abort or a failure to start is thrown as it is.
 */
async function runSplatTransform(inputPath: string, args: string[], { timeoutMs, signal }: { timeoutMs: number; signal?: AbortSignal }): Promise<number> {
  try {
    const { ms } = await runTool({
      command: process.execPath,
      args: [splatTransformCli(), "--quiet", "--no-tty", "--gpu", "cpu", "--overwrite", inputPath, ...args],
      timeoutMs,
      killGraceMs: 2_000,
      signal,
      background: true,
    });
    return ms;
  } catch (error) {
    if (error instanceof ToolError && (error.reason === "exit" || error.reason === "timeout")) {
      const detail = error.output.trim().split("\n").filter(Boolean).slice(-3).join(" ").slice(0, 400);
      throw new DeliveryCopyError(`splat-transform could not convert ${path.basename(inputPath)}: ${error.message}${detail ? ` — ${detail}` : ""}`);
    }
    throw error;
  }
}

/** Reads a written .sog bundle back (its size and splat count); an invalid one is a DeliveryCopyError. */
async function readBundle(bundlePath: string, inputPath: string): Promise<{ bytes: number; splats: number }> {
  try {
    const bundle = await readFile(bundlePath);
    return { bytes: bundle.length, splats: inspectSogBundle(bundle).splats };
  } catch (error) {
    throw new DeliveryCopyError(`the .sog written for ${path.basename(inputPath)} is invalid: ${(error as Error).message}`);
  }
}

/**
 * The coarse copy of a splat of `splats` splats at `outputPath`, or null when it is too small to need
 * one. Only an extra: a conversion failure or timeout is logged and gives null (viewers then load the
 * delivery copy directly); a cancellation still throws.
 */
async function makeCoarseCopy({
  inputPath,
  outputPath,
  splats,
  timeoutMs,
  signal,
}: {
  inputPath: string;
  outputPath: string;
  splats: number;
  timeoutMs: number;
  signal?: AbortSignal;
}): Promise<CoarseCopy | null> {
  const target = coarseSplatTarget(splats);
  if (target === null) return null;
  try {
    // -H 0 drops the spherical harmonics (most of a .sog's bytes), -F merges splats pairwise down to `target`.
    const ms = await runSplatTransform(inputPath, ["-H", "0", "-F", String(target), outputPath], { timeoutMs, signal });
    const bundle = await readBundle(outputPath, inputPath);
    if (bundle.splats < 1 || bundle.splats > target) throw new DeliveryCopyError(`the coarse .sog holds ${bundle.splats} splats, at most ${target} were asked for`);
    return { ...bundle, ms };
  } catch (error) {
    if (!(error instanceof DeliveryCopyError)) throw error;
    logger.warn("no coarse copy for this splat", { input: path.basename(inputPath), splats, reason: error.message });
    // A partial bundle must not be published; failing to remove it must not fail the delivery copy either.
    await rm(outputPath, { force: true }).catch(() => undefined);
    return null;
  }
}

/**
 * Converts the splat at `inputPath` (its name must end in the format's extension, see
 * `deliveryInputName`) into a .sog bundle at `outputPath`, then reads the bundle back. With
 * `coarseOutputPath`, also writes the coarse copy there when the splat is large enough.
 */
export async function makeDeliveryCopy({
  inputPath,
  outputPath,
  coarseOutputPath,
  expectedSplats,
  timeoutMs,
  signal,
}: {
  inputPath: string;
  outputPath: string;
  coarseOutputPath?: string;
  /** When known (e.g. the scan's splat count), the bundle must hold exactly this many. */
  expectedSplats?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}): Promise<DeliveryCopy> {
  if (!outputPath.endsWith(".sog")) throw new Error("the delivery copy's path must end in .sog");
  if (coarseOutputPath !== undefined && !coarseOutputPath.endsWith(".sog")) throw new Error("the coarse copy's path must end in .sog");
  const input = await stat(inputPath);
  await assertCompleteInput(inputPath, input.size);
  // About 1 s per MB on one core, with a generous floor for start-up.
  const limit = timeoutMs ?? 120_000 + Math.ceil(input.size / 1_000_000) * 2_000;
  const ms = await runSplatTransform(inputPath, [outputPath], { timeoutMs: limit, signal });
  const full = await readBundle(outputPath, inputPath);
  if (expectedSplats !== undefined && full.splats !== expectedSplats) {
    throw new DeliveryCopyError(`the .sog holds ${full.splats} splats, ${expectedSplats} were expected`);
  }
  const coarse = coarseOutputPath ? await makeCoarseCopy({ inputPath, outputPath: coarseOutputPath, splats: full.splats, timeoutMs: limit, signal }) : null;
  return { ...full, ms, coarse };
}

/** Deletes the copies no item row points at (nulls skipped). */
async function deleteStoredObjects(keys: Array<string | null>): Promise<void> {
  const store = storage();
  for (const key of keys) if (key) await store.delete(key);
}

export type ItemDeliveryOutcome =
  | { status: "created"; key: string; bytes: number; splats: number; coarse: { key: string; bytes: number; splats: number } | null }
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
    select: { fileKey: true, fileFormat: true, deliveryKey: true, deliverySourceKey: true, deliveryCoarseKey: true },
  });
  if (!item || item.fileKey !== sourceKey) return { status: "skipped", reason: "the item's file has changed" };
  if (item.deliveryKey && item.deliverySourceKey === sourceKey) return { status: "skipped", reason: "the delivery copy exists" };
  if (!needsDeliveryCopy(item.fileFormat)) return { status: "skipped", reason: `no delivery copy for .${item.fileFormat} files` };

  const store = storage();
  const workDir = await mkdtemp(path.join(os.tmpdir(), "scanroom-delivery-"));
  try {
    const inputPath = path.join(workDir, deliveryInputName(item.fileFormat as ModelFormat));
    const outputPath = path.join(workDir, "delivery.sog");
    const coarseOutputPath = path.join(workDir, "coarse.sog");
    await pipeline(await store.createReadStream(sourceKey), createWriteStream(inputPath));
    let copy: DeliveryCopy;
    try {
      copy = await makeDeliveryCopy({ inputPath, outputPath, coarseOutputPath });
    } catch (error) {
      if (!(error instanceof DeliveryCopyError)) throw error;
      logger.warn("no delivery copy for this model", { itemId, reason: error.message });
      return { status: "failed", reason: error.message };
    }
    const key = deliveryCopyKey(itemId, sourceKey, DELIVERY_FORMAT);
    const coarse = copy.coarse ? { key: deliveryCopyKey(itemId, sourceKey, COARSE_KEY_SUFFIX), bytes: copy.coarse.bytes, splats: copy.coarse.splats } : null;
    await store.write(key, await readFile(outputPath), { contentType: "application/octet-stream" });
    if (coarse) await store.write(coarse.key, await readFile(coarseOutputPath), { contentType: "application/octet-stream" });
    // Compare-and-set on the source: a new upload or scan result in the meantime wins.
    const { count } = await db().item.updateMany({
      where: { id: itemId, fileKey: sourceKey },
      data: {
        deliveryKey: key,
        deliverySize: BigInt(copy.bytes),
        deliveryFormat: DELIVERY_FORMAT,
        deliverySourceKey: sourceKey,
        deliveryCoarseKey: coarse?.key ?? null,
        deliveryCoarseSize: coarse ? BigInt(coarse.bytes) : null,
      },
    });
    if (count === 0) {
      await deleteStoredObjects([key, coarse?.key ?? null]);
      return { status: "skipped", reason: "the item's file has changed" };
    }
    // The older copies (made from an earlier file) are nobody's now; the same keys were just rewritten.
    await deleteStoredObjects([item.deliveryKey, item.deliveryCoarseKey].filter((old) => old !== key && old !== coarse?.key));
    logger.info("delivery copy made", { itemId, bytes: copy.bytes, splats: copy.splats, ms: copy.ms, coarse: copy.coarse });
    return { status: "created", key, bytes: copy.bytes, splats: copy.splats, coarse };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
