import { randomUUID } from "node:crypto";
import { db, type Item, type Upload } from "~/db.server";
import { detectImageFormat, detectVideoContainer, MAGIC_BYTES } from "~/formats/media-format";
import {
  imageCountProblem,
  isSupportedVideoAspect,
  MAX_SCAN_IMAGE_BYTES,
  MAX_VIDEO_BYTES,
  MAX_VIDEO_SECONDS,
  MESSAGES,
  parseImageUploadName,
  partSizeFor,
  SCAN_COST,
} from "~/lib/upload-rules";
import { localStorageDriver, storage } from "~/storage/index.server";
import { imageFolderKey } from "~/storage/keys";
import { followUpsCommitted, recordFollowUps } from "./outbox.server";
import { assertScansAvailable } from "./scan-availability.server";
import { releaseCredits, reserveCredits, withCreditLedger, type Tx } from "./credits.server";
import { AppError, invalidFile, invalidInput, notFound } from "~/lib/errors";
import { getOwnedItem } from "./item-access.server";
import { probeVideo } from "./media-probe.server";

/**
 * Scan requests (SPEC §4, §7 POST /scan/video/{id} and /scan/image/{id}). The server never trusts
 * the browser: it checks again, from the stored files, everything the Upload dialog checked (the
 * same rules from ~/lib/upload-rules), then — in one transaction holding the user's ledger lock —
 * reserves one scan credit, creates the ScanJob, marks the item queued and enqueues the pipeline's
 * job. A refused request changes nothing.
 */
export interface ScanAccepted {
  item_id: string;
  scan_job_id: string;
  status: "queued";
}

/** Slack between the duration a browser reports and ffprobe's (container vs stream timing). */
const DURATION_SLACK_SECONDS = 1;
const HEAD_READS_AT_ONCE = 16;

async function getScannableItem(input: { itemId: string; ownerId: string; uploadType: "image" | "video" }): Promise<Item> {
  const item = await getOwnedItem({ itemId: input.itemId, ownerId: input.ownerId });
  if (item.uploadType !== input.uploadType) {
    throw invalidInput(`This item is not ${input.uploadType === "image" ? "an image set" : "a video"} upload.`);
  }
  if (item.status !== "uploading") throw alreadyRequested();
  return item;
}

const alreadyRequested = () => new AppError("conflict", "A scan was already requested for this item.");

/** The stored video's size, assembling it first when it was uploaded in parts. */
async function storedVideoSize(upload: Upload): Promise<number> {
  const store = storage();
  const stat = await store.stat(upload.key);
  if (stat) {
    await store.abortMultipartUpload(upload.key); // a whole-file PUT won: drop any parts
    return stat.size;
  }
  if (upload.size !== null) {
    const size = Number(upload.size);
    const result = await store.completeMultipartUpload({ key: upload.key, size, partSize: partSizeFor(size) });
    if (result.status === "completed") return result.size;
    if (result.status === "incomplete") {
      throw new AppError("conflict", `The video upload is incomplete: part ${result.parts.slice(0, 5).join(", ")} is missing or partial.`);
    }
  }
  throw new AppError("conflict", "The video has not been uploaded yet.");
}

export async function requestVideoScan(input: {
  itemId: string;
  ownerId: string;
  duration: number;
  width: number;
  height: number;
  inputBucketPath: string;
}): Promise<ScanAccepted> {
  const item = await getScannableItem({ ...input, uploadType: "video" });
  await assertScansAvailable(); // before anything is reserved: the item stays as it is
  // What the browser reports must pass the dialog's rules…
  if (!isSupportedVideoAspect(input.width, input.height)) throw invalidFile(MESSAGES.unsupportedAspect);
  if (input.duration > MAX_VIDEO_SECONDS) {
    throw invalidInput(
      `duration must be at most ${MAX_VIDEO_SECONDS} seconds: only the first 3 minutes of a video are used, so send ${MAX_VIDEO_SECONDS} for a longer video.`,
    );
  }
  const upload = await db().upload.findFirst({ where: { itemId: item.id, kind: "video", key: input.inputBucketPath } });
  if (!upload) throw invalidInput("input_bucket_path is not a video upload of this item (use the path from GET /v1/upload/video/{id}).");

  // …and so must the stored file itself.
  const size = await storedVideoSize(upload);
  if (size === 0) throw invalidFile("The uploaded video is empty.");
  if (size > MAX_VIDEO_BYTES) throw invalidFile(MESSAGES.videoTooLarge);
  const container = detectVideoContainer(await storage().readHead(upload.key, MAGIC_BYTES));
  if (!container) throw invalidFile("The uploaded file is not a video (MP4, MOV, MKV, WebM or AVI).");
  const local = localStorageDriver();
  const source = local
    ? local.pathOf(upload.key)
    : await storage().createDownloadUrl({ key: upload.key, expiresInSeconds: 10 * 60 });
  const probe = await probeVideo({ input: source, container });
  if (!probe) throw invalidFile(MESSAGES.videoMetadata);
  if (!isSupportedVideoAspect(probe.width, probe.height)) throw invalidFile(MESSAGES.unsupportedAspect);
  if (input.duration > probe.duration + DURATION_SLACK_SECONDS) {
    throw invalidInput(`duration (${input.duration} s) is longer than the uploaded video (${probe.duration.toFixed(1)} s).`);
  }

  return acceptScan({
    item,
    inputKind: "video",
    inputPath: upload.key,
    video: { duration: Math.min(input.duration, probe.duration), width: probe.width, height: probe.height },
    completeUploads: async (tx) => {
      await tx.upload.update({ where: { id: upload.id }, data: { size: BigInt(size), detected: container, completedAt: new Date() } });
    },
  });
}

/** Runs `fn` over `items`, at most `limit` at a time; resolves with the results in order. */
async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]);
    }
  });
  await Promise.all(lanes);
  return results;
}

export async function requestImageScan(input: { itemId: string; ownerId: string; inputBucketPath: string }): Promise<ScanAccepted> {
  const item = await getScannableItem({ ...input, uploadType: "image" });
  await assertScansAvailable(); // before anything is reserved: the item stays as it is
  const folder = imageFolderKey(item.id);
  if (input.inputBucketPath !== folder) {
    throw invalidInput("input_bucket_path is not this item's image folder (use the path from GET /v1/upload/image/{id}).");
  }
  const store = storage();
  const images = (await store.list(folder))
    .map((object) => ({ ...object, name: object.key.slice(folder.length) }))
    .filter((object) => parseImageUploadName(object.name) !== null);
  const countProblem = imageCountProblem(images.length);
  if (countProblem) throw invalidFile(countProblem.message);
  for (const image of images) {
    if (image.size === 0) throw invalidFile(`${image.name} is empty.`);
    if (image.size > MAX_SCAN_IMAGE_BYTES) throw invalidFile(MESSAGES.imageTooLarge(image.name));
  }
  const formats = await mapLimited(images, HEAD_READS_AT_ONCE, async (image) => detectImageFormat(await store.readHead(image.key, MAGIC_BYTES)));
  const bad = images.find((_, i) => formats[i] === null);
  if (bad) throw invalidFile(`${bad.name} is not a JPEG, PNG, WebP, HEIC, TIFF or BMP image.`);

  return acceptScan({
    item,
    inputKind: "image",
    inputPath: folder,
    completeUploads: async (tx) => {
      await tx.upload.updateMany({
        where: { itemId: item.id, kind: "image", key: { in: images.map((image) => image.key) } },
        data: { completedAt: new Date() },
      });
    },
  });
}

/**
 * Reserves the credit, creates the ScanJob, marks the item queued and enqueues the job, in one
 * transaction under the user's ledger lock. `from` is the item status the request expects:
 * `uploading` for a first scan, `failed` for a retry (scan-control.server.ts).
 */
export async function acceptScan(input: {
  item: Item;
  inputKind: "video" | "image";
  inputPath: string;
  video?: { duration: number; width: number; height: number };
  completeUploads?: (tx: Tx) => Promise<void>;
  from?: "uploading" | "failed";
}): Promise<ScanAccepted> {
  const { item } = input;
  const from = input.from ?? "uploading";
  const scanJobId = randomUUID();
  const reference = `scan:${scanJobId}`;
  await withCreditLedger(item.ownerId, async (ctx) => {
    // Checked again under the lock: a parallel request for the same item may have won.
    const current = await ctx.tx.item.findFirst({ where: { id: item.id, ownerId: item.ownerId }, select: { status: true } });
    if (!current) throw notFound();
    if (current.status !== from) throw from === "uploading" ? alreadyRequested() : new AppError("conflict", "Only a failed or cancelled scan can be retried.");
    await reserveCredits(ctx, {
      creditType: "scan",
      amount: SCAN_COST,
      reference,
      reason: `${input.inputKind === "video" ? "Video" : "Image-set"} scan of item ${item.id}`,
    });
    await ctx.tx.scanJob.create({
      data: {
        id: scanJobId,
        itemId: item.id,
        userId: item.ownerId,
        inputKind: input.inputKind,
        inputPath: input.inputPath,
        duration: input.video?.duration,
        width: input.video?.width,
        height: input.video?.height,
        status: "queued",
        reservationRef: reference,
      },
    });
    await ctx.tx.item.update({
      where: { id: item.id },
      data: { status: "queued", statusDetail: "Queued for processing", progress: 0 },
    });
    await input.completeUploads?.(ctx.tx);
    // The pipeline's job is queued once this commits (the outbox), never for a request that rolled back.
    await recordFollowUps(ctx.tx, [{ kind: "scan", scanJobId }]);
  });
  followUpsCommitted();
  return { item_id: item.id, scan_job_id: scanJobId, status: "queued" };
}

/**
 * When an item is deleted before its scan finished, the scan can never deliver: its reserved credit
 * goes back (SPEC §9: a scan costs a credit only for a model). Called by deleteItem before the
 * item's ScanJobs go with it. Scoped by owner; idempotent.
 */
export async function releaseCreditsOfUnfinishedScans({ itemId, ownerId }: { itemId: string; ownerId: string }): Promise<number> {
  const jobs = await db().scanJob.findMany({
    where: { itemId, userId: ownerId, item: { ownerId }, status: { in: ["queued", "running"] }, reservationRef: { not: null } },
    select: { reservationRef: true },
  });
  let released = 0;
  for (const job of jobs) {
    const settled = await db().ledgerEntry.count({ where: { userId: ownerId, reference: job.reservationRef!, kind: { in: ["consumption", "release"] } } });
    if (settled > 0) continue;
    if (await releaseCredits({ userId: ownerId, reference: job.reservationRef!, reason: `Item ${itemId} deleted before its scan finished` })) released++;
  }
  return released;
}
