import { Prisma, db, type Item, type ItemVersion } from "~/db.server";
import { env } from "~/env.server";
import { isSplatFormat, type ModelFormat } from "~/formats/model-format";
import { storage } from "~/storage/index.server";
import { itemVersionKey } from "~/storage/keys";
import { readPlyHeader } from "~/formats/ply";
import { validateSplatPly } from "~/formats/splat-ply";
import { audited } from "./audit.server";
import { AppError, invalidFile, notFound } from "~/lib/errors";
import { presentItemVersion, type ItemVersionDto } from "./item-version-presenter";
import { followUpsCommitted, recordFollowUps } from "./outbox.server";
import { needsDeliveryCopy } from "./splat-delivery.server";
import { readAll, splatAsPly } from "./splat-convert.server";

/**
 * Versions of a splat item (the clean-up editor; docs/decisions/027-splat-editor-and-versions.md).
 * Version 1 ("Original") is the item's file before the first edit, recorded when versions are first
 * asked for. Saving adds a version and makes it current; restoring makes an earlier one current.
 * Neither deletes anything: every version's file stays until the item is deleted (its files live
 * under the item's prefix). Callers have checked the item is the caller's (requireEditorAccess).
 */
const UPLOAD_URL_SECONDS = 60 * 60;
const PLY_HEAD_BYTES = 64 * 1024;

function assertEditable(item: Item): asserts item is Item & { fileKey: string; fileFormat: ModelFormat } {
  if (!item.fileKey || item.status !== "ready") throw new AppError("conflict", "This model has no file to edit yet.");
  if (!isSplatFormat(item.fileFormat)) throw invalidFile("Only gaussian splats can be cleaned up; this model is a mesh.");
}

/** The splat count of a stored 3DGS .ply from its header (null for other formats or an unreadable header). */
async function plySplatCount(key: string, format: string): Promise<number | null> {
  if (format !== "ply") return null;
  const vertex = readPlyHeader(await storage().readHead(key, PLY_HEAD_BYTES))?.elements.find((element) => element.name === "vertex");
  return vertex && Number.isInteger(vertex.count) ? vertex.count : null;
}

/** Records the item's file as version 1 the first time versions are needed. */
async function ensureOriginalVersion(item: Item & { fileKey: string; fileFormat: ModelFormat }): Promise<void> {
  if (await db().itemVersion.count({ where: { itemId: item.id, committedAt: { not: null } } })) return;
  try {
    await db().itemVersion.create({
      data: {
        itemId: item.id,
        number: 1,
        label: "Original",
        fileKey: item.fileKey,
        fileFormat: item.fileFormat,
        fileSize: item.fileSize,
        splatCount: await plySplatCount(item.fileKey, item.fileFormat),
        createdAt: item.createdAt,
        committedAt: item.createdAt,
      },
    });
  } catch (error) {
    // Two first requests at once: the other one recorded it.
    if (!(error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")) throw error;
  }
}

export async function listItemVersions(item: Item): Promise<{ versions: ItemVersionDto[] }> {
  assertEditable(item);
  await ensureOriginalVersion(item);
  const versions = await db().itemVersion.findMany({ where: { itemId: item.id, committedAt: { not: null } }, orderBy: { number: "desc" } });
  return { versions: versions.map((version) => presentItemVersion(version, item)) };
}

/** The current file as a standard 3DGS .ply (converted when stored in another splat format). */
export async function readEditableSplats(item: Item): Promise<Uint8Array> {
  assertEditable(item);
  const key = item.fileKey;
  return splatAsPly({ format: item.fileFormat, read: () => storage().createReadStream(key) });
}

/** Starts saving a new version: a signed link to PUT its .ply to, then commitItemVersion. */
export async function startItemVersion(item: Item): Promise<{ version_id: string; path: string; url: string }> {
  assertEditable(item);
  await ensureOriginalVersion(item);
  await discardAbandonedSaves(item.id);
  const key = itemVersionKey(item.id);
  const version = await db().itemVersion.create({ data: { itemId: item.id, label: "Edited", fileKey: key, fileFormat: "ply" } });
  const url = await storage().createUploadUrl({ key, expiresInSeconds: UPLOAD_URL_SECONDS, maxBytes: env().MAX_MODEL_BYTES, expect: "ply" });
  return { version_id: version.id, path: key, url };
}

/**
 * Saves started but never committed once their upload link has expired (the editor closed mid-save): their
 * rows and any uploaded file go, so they neither pile up in storage nor wait for the item's deletion.
 */
async function discardAbandonedSaves(itemId: string): Promise<void> {
  const expired = new Date(Date.now() - UPLOAD_URL_SECONDS * 1000);
  const abandoned = await db().itemVersion.findMany({ where: { itemId, committedAt: null, createdAt: { lt: expired } } });
  for (const version of abandoned) {
    await storage().delete(version.fileKey);
    await db().itemVersion.deleteMany({ where: { id: version.id, committedAt: null } });
  }
}

/**
 * Checks the uploaded bytes as a whole 3DGS binary .ply (every property a float, the body exactly
 * the declared splats, no NaN) and makes it the item's current file. A file that fails is deleted
 * with its pending version; the item and its versions stay as they were.
 */
export async function commitItemVersion(item: Item, versionId: string, actorId: string): Promise<{ version: ItemVersionDto }> {
  assertEditable(item);
  const pending = await db().itemVersion.findFirst({ where: { id: versionId, itemId: item.id } });
  if (!pending) throw notFound("Version");
  if (pending.committedAt) return { version: presentItemVersion(pending, item) };
  const store = storage();
  const stat = await store.stat(pending.fileKey);
  if (!stat) throw new AppError("conflict", "Upload the version's file before saving it.");
  let splatCount: number;
  try {
    if (stat.size > env().MAX_MODEL_BYTES) throw new Error("it is larger than the upload limit");
    splatCount = validateSplatPly(await readAll(await store.createReadStream(pending.fileKey))).count;
    if (splatCount === 0) throw new Error("it holds no splats");
  } catch (error) {
    await store.delete(pending.fileKey);
    await db().itemVersion.delete({ where: { id: pending.id } });
    throw invalidFile(`The saved file is not a gaussian splat .ply: ${(error as Error).message}.`);
  }
  const committed = await numberVersion(item.id, pending.id, { fileSize: BigInt(stat.size), splatCount, committedAt: new Date() });
  const current = await makeCurrent(item, committed, { actorId, action: "item.version_saved" });
  return { version: presentItemVersion(committed, current) };
}

/** Gives a committed version the next number; two saves at once both get one (the loser of the unique index tries again). */
async function numberVersion(itemId: string, versionId: string, data: { fileSize: bigint; splatCount: number; committedAt: Date }): Promise<ItemVersion> {
  for (let attempt = 1; ; attempt++) {
    try {
      const last = await db().itemVersion.aggregate({ where: { itemId }, _max: { number: true } });
      return await db().itemVersion.update({ where: { id: versionId }, data: { ...data, number: (last._max.number ?? 1) + 1 } });
    } catch (error) {
      if (attempt >= 5 || !(error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")) throw error;
    }
  }
}

/** Makes an earlier version the item's file again (one click in the editor's versions list). */
export async function restoreItemVersion(item: Item, versionId: string, actorId: string): Promise<{ version: ItemVersionDto }> {
  assertEditable(item);
  await ensureOriginalVersion(item);
  const version = await db().itemVersion.findFirst({ where: { id: versionId, itemId: item.id, committedAt: { not: null } } });
  if (!version) throw notFound("Version");
  const current = await makeCurrent(item, version, { actorId, action: "item.version_restored" });
  return { version: presentItemVersion(version, current) };
}

/**
 * Points the item at a version's file (with its audit entry, in one transaction: the model's file
 * changed) and queues the viewers' delivery copy of it.
 */
async function makeCurrent(item: Item, version: ItemVersion, audit: { actorId: string; action: "item.version_saved" | "item.version_restored" }): Promise<Item> {
  if (item.fileKey === version.fileKey) return item;
  const updated = await audited(audit.actorId, async (tx) => {
    const result = await tx.item.update({
      where: { id: item.id },
      data: { fileKey: version.fileKey, fileFormat: version.fileFormat, fileSize: version.fileSize },
    });
    // Until the copy exists viewers get the version's own file (deliveredObject compares the source key).
    if (needsDeliveryCopy(version.fileFormat)) await recordFollowUps(tx, [{ kind: "delivery-copy", itemId: item.id, sourceKey: version.fileKey }]);
    return {
      result,
      audit: {
        action: audit.action,
        targetType: "item" as const,
        targetId: item.id,
        before: { file_key: item.fileKey, file_format: item.fileFormat, file_size: item.fileSize },
        after: { version_id: version.id, version_number: version.number, file_key: version.fileKey, file_format: version.fileFormat, file_size: version.fileSize },
      },
    };
  });
  followUpsCommitted();
  return updated;
}
