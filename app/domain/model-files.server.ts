import type { Readable } from "node:stream";
import { storage } from "~/storage/index.server";
import { notFound } from "./errors";
import { getVisibleItem } from "./items.server";

/** Opens an item's model file for someone allowed to see the item. */
export async function openItemFile({ itemId, viewerId }: { itemId: string; viewerId: string | null }): Promise<{
  stream: Readable;
  size: number;
  etag: string;
  fileName: string;
}> {
  const item = await getVisibleItem({ itemId, viewerId });
  if (!item.fileKey) throw notFound("Model file");
  const stat = await storage().stat(item.fileKey);
  if (!stat) throw notFound("Model file");
  const extension = item.fileKey.split(".").pop() ?? item.modelType;
  return {
    stream: await storage().createReadStream(item.fileKey),
    size: stat.size,
    etag: stat.etag,
    fileName: `${item.name.replace(/[^\w .-]+/g, "_")}.${extension}`,
  };
}
