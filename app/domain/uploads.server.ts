import { db } from "~/db.server";
import { env } from "~/env.server";
import { storage } from "~/storage/index.server";
import { imageFolderKey, modelUploadKey, videoUploadKey } from "~/storage/keys";
import { declaredTypeMismatchMessage, detectModelFormat, formatMatchesDeclaredType } from "~/formats/model-format";
import { sogBundleProblem } from "~/formats/sog-bundle.server";
import { splatRecordsProblem } from "~/formats/splat";
import { spzHeaderProblem } from "~/formats/spz";
import {
  fileExtension,
  MAX_IMAGES,
  MAX_SCAN_IMAGE_BYTES,
  MAX_VIDEO_BYTES,
  MESSAGES,
  parseImageUploadName,
  partSizeFor,
  VIDEO_EXTENSIONS,
} from "~/lib/upload-rules";
import type { Item } from "~/db.server";
import { AppError, invalidFile, invalidInput } from "~/lib/errors";
import { getOwnedItem } from "./item-access.server";
import { needsDeliveryCopy } from "./splat-delivery.server";
import { thumbnailSource } from "./item-thumbnails.server";
import { followUpsCommitted, recordFollowUps } from "./outbox.server";

const UPLOAD_URL_SECONDS = 60 * 60;
const HEAD_BYTES = 64 * 1024;

/** The upload-URL response of SPEC §3. */
export interface UploadUrl {
  path: string;
  url: string;
}

/**
 * A signed URL to PUT the item's file. The item must be the caller's and still uploading, and the
 * requested upload type must be the one the item was created with.
 */
export async function createItemUploadUrl(input: {
  itemId: string;
  ownerId: string;
  uploadType: "model" | "image" | "video";
}): Promise<UploadUrl> {
  const item = await getOwnedItem({ itemId: input.itemId, ownerId: input.ownerId });
  if (item.uploadType !== input.uploadType) {
    throw invalidInput(`uploadType must be ${item.uploadType} for this item.`);
  }
  if (input.uploadType === "image") return createImageFolder({ itemId: item.id, ownerId: input.ownerId });
  if (input.uploadType === "video") return createVideoUploadUrl({ itemId: item.id, ownerId: input.ownerId });
  assertUploading(item);
  const key = modelUploadKey(item.id, item.modelType);
  await db().upload.create({ data: { itemId: item.id, kind: input.uploadType, key } });
  const url = await storage().createUploadUrl({
    key,
    expiresInSeconds: UPLOAD_URL_SECONDS,
    maxBytes: env().MAX_MODEL_BYTES,
    expect: item.modelType,
  });
  return { path: key, url };
}

function assertUploading(item: Item) {
  if (item.status !== "uploading") throw new AppError("conflict", "This item's file has already been uploaded.");
}

async function getUploadingItem(input: { itemId: string; ownerId: string; uploadType: "image" | "video" }) {
  const item = await getOwnedItem({ itemId: input.itemId, ownerId: input.ownerId });
  if (item.uploadType !== input.uploadType) throw invalidInput(`This item is not ${input.uploadType === "image" ? "an image set" : "a video"} upload.`);
  assertUploading(item);
  return item;
}

// A video of hundreds of MB can take hours on a slow connection: its part URLs stay valid for a day.
const VIDEO_UPLOAD_SECONDS = 24 * 60 * 60;

/**
 * The video upload link (SPEC §7 GET /upload/video/{id} → path, url). `url` takes the whole file in
 * one PUT. With `size` (bytes) the answer also offers a resumable upload in parts: `part_size` and
 * one signed PUT URL per part, in order; a part that fails is sent again on its own, and the scan
 * request assembles the parts.
 */
export async function createVideoUploadUrl(input: {
  itemId: string;
  ownerId: string;
  size?: number;
  fileName?: string;
}): Promise<UploadUrl & { part_size?: number; part_urls?: string[] }> {
  const item = await getUploadingItem({ ...input, uploadType: "video" });
  if (input.size !== undefined && input.size > MAX_VIDEO_BYTES) throw invalidFile(MESSAGES.videoTooLarge);
  const ext = input.fileName ? fileExtension(input.fileName) : null;
  const key = videoUploadKey(item.id, ext && (VIDEO_EXTENSIONS as readonly string[]).includes(ext) ? ext : "video");
  await db().upload.create({
    data: {
      itemId: item.id,
      kind: "video",
      key,
      fileName: input.fileName?.slice(0, 255),
      size: input.size === undefined ? null : BigInt(input.size),
    },
  });
  const store = storage();
  const url = await store.createUploadUrl({ key, expiresInSeconds: VIDEO_UPLOAD_SECONDS, maxBytes: MAX_VIDEO_BYTES });
  if (input.size === undefined) return { path: key, url };
  const partSize = partSizeFor(input.size);
  const { partUrls } = await store.createMultipartUpload({ key, size: input.size, partSize, expiresInSeconds: VIDEO_UPLOAD_SECONDS });
  return { path: key, url, part_size: partSize, part_urls: partUrls };
}

/**
 * The image-set folder (SPEC §7 GET /upload/image/{id} → path, url). `path` is the folder the scan
 * request names; `url` is where each image's own upload link comes from.
 */
export async function createImageFolder(input: { itemId: string; ownerId: string }): Promise<UploadUrl> {
  const item = await getUploadingItem({ ...input, uploadType: "image" });
  return { path: imageFolderKey(item.id), url: `/v1/upload/image/${item.id}/file` };
}

/**
 * One image's upload link (SPEC §7 GET /upload/image/{id}/file?filename=). Names are image-001.jpg,
 * image-002.png … (3 digits, the file's own image extension). A set never holds more than 300.
 */
const IMAGE_NAME_RULE = "must be image-NNN.<ext>: three digits from 001 and an image extension (jpg, jpeg, png, webp, heic, heif, tif, tiff, bmp).";

/** GET /v1/upload/image/{id}/file: one photo's upload link (SPEC §7). */
export async function createImageFileUploadUrl(input: { itemId: string; ownerId: string; fileName: string }): Promise<UploadUrl> {
  if (!parseImageUploadName(input.fileName)) throw invalidInput(`filename ${IMAGE_NAME_RULE}`);
  const [link] = await createImageFileUploadUrls({ itemId: input.itemId, ownerId: input.ownerId, fileNames: [input.fileName] });
  return { path: link.path, url: link.url };
}

/**
 * Upload links for many photos of a set in one request (issue 19 item 5: per-file link requests made
 * a 300-photo upload ~0.5× as fast as plain PUTs). Same rules as one at a time: the item is the
 * caller's image set, still uploading; names follow image-NNN; at most MAX_IMAGES photos in all.
 */
export async function createImageFileUploadUrls(input: {
  itemId: string;
  ownerId: string;
  fileNames: string[];
}): Promise<Array<UploadUrl & { filename: string }>> {
  const badIndex = input.fileNames.findIndex((name) => !parseImageUploadName(name));
  if (badIndex >= 0) throw invalidInput(`filenames.${badIndex} ${IMAGE_NAME_RULE}`);
  if (new Set(input.fileNames).size !== input.fileNames.length) throw invalidInput("filenames must not repeat a name.");
  const item = await getUploadingItem({ itemId: input.itemId, ownerId: input.ownerId, uploadType: "image" });
  const keys = input.fileNames.map((name) => `${imageFolderKey(item.id)}${name}`);
  const existing = new Set((await db().upload.findMany({ where: { itemId: item.id, key: { in: keys } }, select: { key: true } })).map((row) => row.key));
  const fresh = input.fileNames.filter((_, i) => !existing.has(keys[i]));
  if (fresh.length > 0) {
    const count = await db().upload.count({ where: { itemId: item.id, kind: "image" } });
    if (count + fresh.length > MAX_IMAGES) throw invalidFile(MESSAGES.tooManyImages);
    // Two requests for the same name at once both land on the one row.
    await db().upload.createMany({
      data: fresh.map((fileName) => ({ itemId: item.id, kind: "image" as const, key: `${imageFolderKey(item.id)}${fileName}`, fileName })),
      skipDuplicates: true,
    });
  }
  return Promise.all(
    input.fileNames.map(async (filename, i) => ({
      filename,
      path: keys[i],
      url: await storage().createUploadUrl({ key: keys[i], expiresInSeconds: UPLOAD_URL_SECONDS, maxBytes: MAX_SCAN_IMAGE_BYTES }),
    })),
  );
}

/**
 * The "report file size" step of the model-file flow (SPEC §4). The server checks the stored bytes
 * itself: the object exists, its size is the reported one and within the limit, and its magic bytes
 * match the declared model type. A file that fails is deleted; the item is marked ready otherwise.
 */
export async function confirmModelFile(input: { itemId: string; ownerId: string; size: number }) {
  const item = await getOwnedItem({ itemId: input.itemId, ownerId: input.ownerId });
  if (item.uploadType !== "model") throw invalidInput("Only model uploads report a file size.");
  const upload = await db().upload.findFirst({
    where: { itemId: item.id, kind: "model", completedAt: null },
    orderBy: { createdAt: "desc" },
  });
  if (!upload) {
    if (item.fileKey && Number(item.fileSize) === input.size) return item; // the same report twice
    throw new AppError("conflict", "Request an upload link and upload the file first.");
  }
  const store = storage();
  const stat = await store.stat(upload.key);
  if (!stat) throw new AppError("conflict", "The file has not been uploaded yet.");
  const reject = async (message: string) => {
    await store.delete(upload.key);
    await db().upload.delete({ where: { id: upload.id } });
    throw invalidFile(message);
  };
  if (stat.size === 0) return reject("Downloaded file is empty or corrupted");
  if (stat.size !== input.size) {
    return reject(`The uploaded file has ${stat.size} bytes, not the ${input.size} reported.`);
  }
  if (stat.size > env().MAX_MODEL_BYTES) return reject("The file is larger than the upload limit.");
  const head = await store.readHead(upload.key, HEAD_BYTES);
  const format = detectModelFormat(head, `model.${item.modelType}`);
  if (!formatMatchesDeclaredType(format, item.modelType)) return reject(declaredTypeMismatchMessage(item.modelType, format));
  // A container is judged by what is inside it, not by its signature (issue 17 item 10, issue 18 item 6).
  const contentProblem =
    format === "spz"
      ? spzHeaderProblem(head)
      : format === "splat"
        ? splatRecordsProblem(head, stat.size)
        : format === "sog"
          ? await sogBundleProblem(stat.size, (start, end) => readStoredRange(upload.key, start, end))
          : null;
  if (contentProblem) return reject(contentProblem);
  const ready = await db().$transaction(async (tx) => {
    await tx.upload.update({
      where: { id: upload.id },
      data: { size: BigInt(stat.size), detected: format, completedAt: new Date() },
    });
    const ready = await tx.item.update({
      where: { id: item.id },
      data: {
        fileKey: upload.key,
        originalFileKey: upload.key,
        fileSize: BigInt(stat.size),
        fileFormat: format,
        status: "ready",
        statusDetail: null,
      },
    });
    // Viewers get the original until the compact copy exists, and the default picture until the thumbnail does.
    const thumbnail = thumbnailSource(ready);
    await recordFollowUps(tx, [
      ...(needsDeliveryCopy(format) ? [{ kind: "delivery-copy" as const, itemId: item.id, sourceKey: upload.key }] : []),
      ...(thumbnail ? [{ kind: "thumbnail" as const, itemId: item.id, sourceKey: thumbnail.key }] : []),
    ]);
    return ready;
  });
  followUpsCommitted();
  return ready;
}

/** Bytes [start, end) of a stored object (the zip checks read a container from its end). */
async function readStoredRange(key: string, start: number, end: number): Promise<Uint8Array> {
  if (end <= start) return new Uint8Array(0);
  const chunks: Buffer[] = [];
  for await (const chunk of await storage().createReadStream(key, { start, end: end - 1 })) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
