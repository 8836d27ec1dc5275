import { db, type Item } from "~/db.server";
import { storage } from "~/storage/index.server";
import { recordAudit } from "./audit.server";
import { deliveredObject } from "./delivery-copy";
import { downloadFileName, keyExtension, OWNER_ONLY_KINDS, type DownloadKind, type ItemDownloadsDto } from "./downloads";
import { notFound } from "~/lib/errors";
import { visibleTo } from "./item-access.server";

/**
 * Downloads of a model's files (issue 18 item 1; docs/decisions/025-downloads.md). Its owner gets
 * everything: the file as uploaded, a scan's splat, delivery copy and meshes, and its input video or
 * photos. Anyone else who can see the model gets its model files only while the owner allows downloads,
 * never a scan's input. Otherwise the model does not exist for them (404), as everywhere else.
 * Each link issued is a short-lived signed URL that saves the plain file under its name, and is
 * recorded in the audit log (who, which model, which file) before it is handed out.
 */

/** How long a download link works: long enough to start a large file, short enough not to be passed around. */
export const DOWNLOAD_LINK_SECONDS = 10 * 60;

export const DOWNLOAD_AUDIT_ACTION = "item.download_link";

interface StoredFile {
  kind: DownloadKind;
  key: string;
  format: string;
  sourceName?: string | null;
}

/** The stored objects of an item, by kind (those it has), in the order the model page lists them. */
async function storedFiles(item: Item, isOwner: boolean): Promise<StoredFile[]> {
  const files: StoredFile[] = [];
  const isScan = item.uploadType === "video" || item.uploadType === "image";
  if (item.fileKey) {
    files.push({ kind: isScan ? "splat" : "model", key: item.fileKey, format: item.fileFormat ?? keyExtension(item.fileKey) ?? item.modelType });
  }
  const delivered = deliveredObject(item);
  if (delivered?.isDeliveryCopy) files.push({ kind: "delivery", key: delivered.key, format: delivered.format ?? keyExtension(delivered.key) ?? "sog" });
  if (item.meshKey) files.push({ kind: "mesh", key: item.meshKey, format: "glb" });
  if (item.meshLiteKey) files.push({ kind: "mesh_lite", key: item.meshLiteKey, format: "glb" });
  if (isOwner && isScan) {
    const inputs = await db().upload.findMany({
      where: { itemId: item.id, kind: { in: ["video", "image"] } },
      orderBy: [{ kind: "asc" }, { key: "asc" }],
      select: { kind: true, key: true, fileName: true },
    });
    for (const input of inputs) {
      const kind = input.kind === "video" ? "video" : "photo";
      files.push({ kind, key: input.key, format: keyExtension(input.key) ?? "bin", sourceName: input.fileName });
    }
  }
  return files.filter((file) => isOwner || !OWNER_ONLY_KINDS.has(file.kind));
}

/**
 * The files of an item that this viewer may download, each with a fresh signed link (recorded in the
 * audit log). `kind` asks for the files of one kind only (one link, one audit entry).
 */
export async function issueItemDownloads({
  itemId,
  viewerId,
  kind,
}: {
  itemId: string;
  viewerId: string | null;
  kind?: DownloadKind;
}): Promise<ItemDownloadsDto> {
  // Scoped like every read: the model must be visible to the viewer, and theirs or open to downloads.
  const item = await db().item.findFirst({ where: { id: itemId, ...visibleTo(viewerId) } });
  const isOwner = !!item && item.ownerId === viewerId;
  if (!item || (!isOwner && !item.allowDownloads)) throw notFound();

  const candidates = (await storedFiles(item, isOwner)).filter((file) => !kind || file.kind === kind);
  const stored = await Promise.all(candidates.map(async (file) => ({ file, stat: await storage().stat(file.key) })));
  const present = stored.flatMap(({ file, stat }) => {
    if (!stat) return [];
    const extension = keyExtension(file.key) ?? file.format;
    return [{ ...file, size: stat.size, fileName: downloadFileName({ itemName: item.name, kind: file.kind, extension, sourceName: file.sourceName }) }];
  });

  // What leaves is recorded before any link exists: no link without its entry.
  await db().$transaction(async (tx) => {
    for (const file of present) {
      await recordAudit(tx, {
        actorId: viewerId,
        action: DOWNLOAD_AUDIT_ACTION,
        targetType: "item",
        targetId: item.id,
        before: null,
        after: { kind: file.kind, file_name: file.fileName, key: file.key, size: file.size, as_owner: isOwner },
      });
    }
  });
  const expiresAt = new Date(Date.now() + DOWNLOAD_LINK_SECONDS * 1000);
  const files = await Promise.all(
    present.map(async (file) => ({
      kind: file.kind,
      format: file.format,
      file_name: file.fileName,
      size: file.size,
      url: await storage().createDownloadUrl({ key: file.key, expiresInSeconds: DOWNLOAD_LINK_SECONDS, fileName: file.fileName }),
    })),
  );
  return { item_id: item.id, allow_downloads: item.allowDownloads, expires_at: expiresAt.toISOString(), files };
}
