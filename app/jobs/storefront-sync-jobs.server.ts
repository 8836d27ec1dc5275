import type PgBoss from "pg-boss";
import { z } from "zod";
import { resyncProduct, type StorefrontProduct } from "~/domain/storefront-sync.server";
import { consumeQueue, queue, STOREFRONT_SYNC_QUEUE } from "./queue.server";

/**
 * Storefront re-sync jobs (app/domain/storefront-sync.server.ts). Like the delivery jobs, the process
 * that enqueues one starts consuming the queue, and a crash leaves the job for the next consumer.
 */
const payloadSchema = z
  .object({ shopDomain: z.string().regex(/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/), productGid: z.string().regex(/^gid:\/\/shopify\/Product\/\d+$/) })
  .strict();

/** Shopify processes a 3D model in seconds to minutes: its state is read again this long after a sync. */
const MEDIA_RECHECK_SECONDS = 20;

export function startStorefrontSyncWorker(boss?: PgBoss): Promise<void> {
  return consumeQueue(
    STOREFRONT_SYNC_QUEUE,
    async (data) => {
      const product = payloadSchema.parse(data);
      const outcome = await resyncProduct(product);
      if (outcome.mediaProcessing > 0) {
        const target = boss ?? (await queue());
        await target.send(STOREFRONT_SYNC_QUEUE, product, { startAfter: MEDIA_RECHECK_SECONDS });
      }
      return outcome;
    },
    boss,
  );
}

/**
 * Queues a metafield rewrite for each product. Every change queues its own job (the queue's standard policy
 * does not fold repeats by singletonKey); each rewrite reads the product's links as they are then, so a
 * later job writes what is current when it runs.
 */
export async function enqueueStorefrontSync(products: StorefrontProduct[]): Promise<void> {
  if (products.length === 0) return;
  const boss = await queue();
  for (const product of products) {
    const payload = payloadSchema.parse(product);
    await boss.send(STOREFRONT_SYNC_QUEUE, payload, { singletonKey: `${payload.shopDomain}|${payload.productGid}` });
  }
  await startStorefrontSyncWorker(boss);
}
