import { db } from "~/db.server";
import { env } from "~/env.server";
import { storage } from "~/storage/index.server";
import { imageFolderKey, modelUploadKey, videoUploadKey } from "~/storage/keys";
import { detectModelFormat, formatMatchesDeclaredType, type DeclaredModelType } from "~/lib/model-format";
import { AppError, invalidFile, invalidInput } from "./errors";
import { getOwnedItem } from "./items.server";

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
  if (item.status !== "uploading") throw new AppError("conflict", "This item's file has already been uploaded.");
  if (input.uploadType === "image") return { path: imageFolderKey(item.id), url: "" };
  const key = input.uploadType === "video" ? videoUploadKey(item.id, "video") : modelUploadKey(item.id, item.modelType);
  await db().upload.create({ data: { itemId: item.id, kind: input.uploadType, key } });
  const url = await storage().createUploadUrl({
    key,
    expiresInSeconds: UPLOAD_URL_SECONDS,
    maxBytes: env().MAX_MODEL_BYTES,
    expect: input.uploadType === "model" ? item.modelType : undefined,
  });
  return { path: key, url };
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
  if (!formatMatchesDeclaredType(format, item.modelType as DeclaredModelType)) {
    return reject(`The file's contents are not a valid .${item.modelType} model.`);
  }
  await db().upload.update({
    where: { id: upload.id },
    data: { size: BigInt(stat.size), detected: format, completedAt: new Date() },
  });
  return db().item.update({
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
}
