/**
 * Automatic thumbnails (issue 18 item 2, docs/decisions/028-automatic-thumbnails.md): when an uploaded
 * model becomes ready, or a scan is published, the thumbnail job renders the model itself on the CPU
 * (app/thumbnails/) as the viewer opens it and stores it as the item's thumbnail — unless the owner has
 * chosen one ("use this view", or an uploaded image). Which thumbnail is automatic is told by its key's
 * name: `auto-…` (rendered here) and `scan-…` (a scan's capture photo, the fallback when rendering fails);
 * an owner's upload gets a bare UUID (storage/keys.ts thumbnailKey). A model that cannot be rendered keeps
 * what it had (the type tile, or the scan's photo), with a logged reason; the item never fails for it.
 */
import { createHash } from "node:crypto";
import { db } from "~/db.server";
import { logger } from "~/lib/logger.server";
import { isModelFormat, type ModelFormat } from "~/lib/model-format";
import { storage } from "~/storage/index.server";
import { itemPrefix } from "~/storage/keys";
import { renderModelThumbnail } from "~/thumbnails/render-thumbnail.server";
import { migrateViewerSettings } from "./viewer-settings";

const AUTOMATIC_PREFIXES = ["auto-", "scan-"];

/** Whether an item's thumbnail was made for it (rendered, or a scan's photo) rather than chosen by its owner. */
export function isAutomaticThumbnailKey(key: string): boolean {
  const name = key.split("/").pop() ?? "";
  return AUTOMATIC_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/** The rendered thumbnail's key, named by the model file it shows (running a job twice writes the same object). */
export function renderedThumbnailKey(itemId: string, sourceKey: string): string {
  return `${itemPrefix(itemId)}thumbnail/auto-${createHash("sha256").update(sourceKey).digest("hex").slice(0, 16)}`;
}

/** The file the viewer shows for an item, which its thumbnail is rendered from: a mesh item's GLB, else its model file. */
export function thumbnailSource(item: { modelType: string; fileKey: string | null; fileFormat: string | null; meshKey: string | null }): { key: string; format: ModelFormat } | null {
  if (item.modelType === "glb" && item.meshKey) return { key: item.meshKey, format: "glb" };
  if (item.fileKey && isModelFormat(item.fileFormat)) return { key: item.fileKey, format: item.fileFormat };
  return null;
}

export type ItemThumbnailOutcome = { status: "created"; key: string } | { status: "skipped"; reason: string } | { status: "failed"; reason: string };

/**
 * Renders and stores the thumbnail of `sourceKey` for an item, unless the item shows another file by now
 * or its owner has chosen a thumbnail. Throws only for infrastructure failures (storage, database).
 */
export async function createItemThumbnail({ itemId, sourceKey }: { itemId: string; sourceKey: string }): Promise<ItemThumbnailOutcome> {
  const item = await db().item.findUnique({
    where: { id: itemId },
    select: { status: true, modelType: true, fileKey: true, fileFormat: true, meshKey: true, thumbnailKey: true, settings: true, settingsVersion: true },
  });
  if (!item || item.status !== "ready") return { status: "skipped", reason: "the item is not ready" };
  const source = thumbnailSource(item);
  if (!source || source.key !== sourceKey) return { status: "skipped", reason: "the item's model file has changed" };
  if (item.thumbnailKey && !isAutomaticThumbnailKey(item.thumbnailKey)) return { status: "skipped", reason: "the owner chose the thumbnail" };
  const key = renderedThumbnailKey(itemId, sourceKey);
  if (item.thumbnailKey === key) return { status: "skipped", reason: "the thumbnail exists" };

  const store = storage();
  const chunks: Buffer[] = [];
  for await (const chunk of await store.createReadStream(sourceKey)) chunks.push(chunk as Buffer);
  const settings = migrateViewerSettings(item.settings, item.settingsVersion);
  let thumbnail;
  try {
    thumbnail = await renderModelThumbnail(new Uint8Array(Buffer.concat(chunks)), source.format, { camera: settings.camera, background: settings.background });
  } catch (error) {
    const reason = (error as Error).message;
    logger.warn("no thumbnail rendered for this model", { itemId, format: source.format, reason });
    return { status: "failed", reason };
  }
  await store.write(key, thumbnail.image, { contentType: "image/webp" });
  // Compare-and-set on the thumbnail: an owner's choice in the meantime wins.
  const { count } = await db().item.updateMany({ where: { id: itemId, thumbnailKey: item.thumbnailKey }, data: { thumbnailKey: key } });
  if (count === 0) {
    await store.delete(key);
    return { status: "skipped", reason: "the thumbnail changed meanwhile" };
  }
  if (item.thumbnailKey) await store.delete(item.thumbnailKey).catch(() => undefined);
  logger.info("thumbnail rendered", { itemId, format: source.format, ...thumbnail.ms });
  return { status: "created", key };
}
