import type PgBoss from "pg-boss";
import { createItemDeliveryCopy } from "~/domain/splat-delivery.server";
import { logger } from "~/lib/logger.server";
import { consumeQueue, DELIVERY_QUEUE, deliveryJobPayloadSchema, queue, type DeliveryJobPayload } from "./queue.server";

/**
 * Delivery-copy jobs (docs/decisions/015-splat-delivery-copies.md). The conversion takes seconds to
 * minutes of CPU in a child process, so it runs after the upload request has answered. Any process
 * may consume the queue: the web process that enqueued a job starts consuming on first use (so a
 * lone `npm run serve` converts its uploads), and scan workers can call startDeliveryWorker() too.
 * A job is idempotent; a crash leaves it in the queue for the next consumer, and until it is done
 * viewers simply get the original file.
 */
export function startDeliveryWorker(boss?: PgBoss): Promise<void> {
  return consumeQueue(
    DELIVERY_QUEUE,
    async (data) => {
      const payload = deliveryJobPayloadSchema.parse(data);
      // Throws only for infrastructure failures (storage, database), which the queue retries.
      const outcome = await createItemDeliveryCopy(payload);
      if (outcome.status !== "created") logger.info("delivery job done without a copy", { itemId: payload.itemId, ...outcome });
    },
    boss,
  );
}

/** Queues the delivery copy of an item's stored file and makes sure this process works the queue. */
export async function enqueueDeliveryCopy(input: DeliveryJobPayload): Promise<void> {
  const boss = await queue();
  await boss.send(DELIVERY_QUEUE, deliveryJobPayloadSchema.parse(input));
  await startDeliveryWorker(boss);
}
