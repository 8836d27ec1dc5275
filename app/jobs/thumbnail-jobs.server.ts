import type PgBoss from "pg-boss";
import { createItemThumbnail, thumbnailSource } from "~/domain/item-thumbnails.server";
import { logger } from "~/lib/logger.server";
import { consumeQueue, queue, THUMBNAIL_QUEUE, thumbnailJobPayloadSchema, type ThumbnailJobPayload } from "./queue.server";

/**
 * Automatic-thumbnail jobs (docs/decisions/028-automatic-thumbnails.md), run like the delivery-copy jobs:
 * the process that enqueues one (the web process after an upload, a scan worker after publishing) starts
 * consuming the queue on first use, so a lone `npm start` and the scan workers both work it. A job is
 * idempotent; a failure to render leaves the item as it was.
 */
export function startThumbnailWorker(boss?: PgBoss): Promise<void> {
  return consumeQueue(
    THUMBNAIL_QUEUE,
    async (data) => {
      const payload = thumbnailJobPayloadSchema.parse(data);
      const outcome = await createItemThumbnail(payload);
      if (outcome.status !== "created") logger.info("thumbnail job done without a thumbnail", { itemId: payload.itemId, ...outcome });
    },
    boss,
  );
}

/** Queues a thumbnail job and makes sure this process works the queue (the outbox relay's hand-over; throws when the queue does not take it). */
export async function enqueueThumbnailJob(input: ThumbnailJobPayload): Promise<void> {
  const boss = await queue();
  await boss.send(THUMBNAIL_QUEUE, thumbnailJobPayloadSchema.parse(input));
  await startThumbnailWorker(boss);
}

/**
 * Queues the thumbnail of the file an item shows (a scan worker after publishing). Never throws: a queue
 * hiccup leaves the item without an automatic thumbnail, logged.
 */
export async function enqueueItemThumbnail(item: { id: string; modelType: string; fileKey: string | null; fileFormat: string | null; meshKey: string | null }): Promise<void> {
  const source = thumbnailSource(item);
  if (!source) return;
  try {
    await enqueueThumbnailJob({ itemId: item.id, sourceKey: source.key });
  } catch (error) {
    logger.warn("could not queue the thumbnail", { itemId: item.id, error });
  }
}
