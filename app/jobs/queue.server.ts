import PgBoss from "pg-boss";
import { z } from "zod";
import { env } from "~/env.server";
import { logger } from "~/lib/logger.server";

/**
 * The job queue (DESIGN §2): pg-boss in our own PostgreSQL, so scan workers on other machines only
 * need the database. The web process only sends jobs: it neither supervises (maintenance runs in
 * the worker) nor schedules.
 */
export const SCAN_QUEUE = "scan";

/** The payload of a scan job: the ScanJob row holds everything else. Validated by the worker. */
export const scanJobPayloadSchema = z.object({ scanJobId: z.string().uuid() }).strict();
export type ScanJobPayload = z.infer<typeof scanJobPayloadSchema>;

/** Making a splat's compact delivery copy (app/domain/splat-delivery.server.ts, app/jobs/delivery-jobs.server.ts). */
export const DELIVERY_QUEUE = "splat-delivery";
export const deliveryJobPayloadSchema = z.object({ itemId: z.string().uuid(), sourceKey: z.string().min(1).max(512) }).strict();
export type DeliveryJobPayload = z.infer<typeof deliveryJobPayloadSchema>;

/** Rendering a model's automatic thumbnail (app/domain/item-thumbnails.server.ts, app/jobs/thumbnail-jobs.server.ts). */
export const THUMBNAIL_QUEUE = "model-thumbnail";
export const thumbnailJobPayloadSchema = z.object({ itemId: z.string().uuid(), sourceKey: z.string().min(1).max(512) }).strict();
export type ThumbnailJobPayload = z.infer<typeof thumbnailJobPayloadSchema>;

/** Rewriting a product's `$app` model metafield after a linked model changed (app/jobs/storefront-sync-jobs.server.ts). */
/** Rendering a model's turntable video on request (app/domain/item-turntables.server.ts, app/jobs/turntable-jobs.server.ts). */
export const TURNTABLE_QUEUE = "model-turntable";
export const turntableJobPayloadSchema = z.object({ itemId: z.string().uuid(), sourceKey: z.string().min(1).max(512) }).strict();
export type TurntableJobPayload = z.infer<typeof turntableJobPayloadSchema>;

export const STOREFRONT_SYNC_QUEUE = "storefront-sync";

const globalForQueue = globalThis as unknown as { __scanroomQueue?: Promise<PgBoss>; __scanroomQueueUrl?: string };

async function startQueue(connectionString: string): Promise<PgBoss> {
  return startPgBoss({ connectionString, max: 4, supervise: false, schedule: false, migrate: true }, "job queue", async (boss) => {
    // Idempotent (ON CONFLICT DO NOTHING); a scan is retried twice after a crash of its worker.
    await boss.createQueue(SCAN_QUEUE, { name: SCAN_QUEUE, retryLimit: 2, retryDelay: 30, retryBackoff: true, expireInSeconds: 6 * 60 * 60 });
    await boss.createQueue(STOREFRONT_SYNC_QUEUE, { name: STOREFRONT_SYNC_QUEUE, retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 10 * 60 });
    await boss.createQueue(THUMBNAIL_QUEUE, { name: THUMBNAIL_QUEUE, retryLimit: 2, retryDelay: 10, retryBackoff: true, expireInSeconds: 10 * 60 });
    await boss.createQueue(TURNTABLE_QUEUE, { name: TURNTABLE_QUEUE, retryLimit: 1, retryDelay: 10, expireInSeconds: 15 * 60 });
    await boss.createQueue(DELIVERY_QUEUE, { name: DELIVERY_QUEUE, retryLimit: 2, retryDelay: 30, retryBackoff: true, expireInSeconds: 30 * 60 });
  });
}

/**
 * A started pg-boss instance, `setup` (queues, schedules, workers) done on it. Processes starting together
 * (a web process and scan workers) take the same locks in pg-boss's start and queue creation, and
 * PostgreSQL can end one of them as a deadlock victim — seen as a scan worker that "could not start:
 * deadlock detected". Every step is idempotent, so the whole start is tried again on a fresh instance.
 */
export async function startPgBoss(
  options: PgBoss.ConstructorOptions,
  label: string,
  setup: (boss: PgBoss) => Promise<void> = async () => undefined,
  create: (options: PgBoss.ConstructorOptions) => PgBoss = (o) => new PgBoss(o),
): Promise<PgBoss> {
  return retryOnDeadlock(async () => {
    const boss = create(options);
    boss.on("error", (error) => logger.warn(`${label} error`, { error }));
    try {
      await boss.start();
      await setup(boss);
      return boss;
    } catch (error) {
      await boss.stop({ graceful: false, wait: false }).catch(() => undefined);
      throw error;
    }
  });
}

/** Runs an idempotent step again when PostgreSQL ended it as a deadlock victim (see startPgBoss). */
export async function retryOnDeadlock<T>(run: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof Error && /deadlock detected/i.test(error.message)) || attempt >= attempts) throw error;
      await new Promise<void>((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}

/** The started queue of this process (created on first use; its schema is migrated by pg-boss). */
const consumers = new WeakMap<PgBoss, Set<string>>();

/**
 * Makes this process work the queue `name`, one job at a time, once per queue instance: a job sent by one
 * process is worked by whichever consumer polls first (the web process that sent it, a scan worker), and a
 * crash leaves it for the next. `handle` gets the job's data unchecked (validate it) and throws only for
 * failures a retry may mend.
 */
export async function consumeQueue(name: string, handle: (data: unknown) => Promise<unknown>, boss?: PgBoss): Promise<void> {
  const target = boss ?? (await queue());
  let names = consumers.get(target);
  if (!names) consumers.set(target, (names = new Set()));
  if (names.has(name)) return;
  names.add(name);
  try {
    await target.work<unknown>(name, { batchSize: 1, pollingIntervalSeconds: 2 }, async ([job]) => {
      try {
        await handle(job.data);
      } catch (error) {
        // The queue retries it (or gives up after its retry limit): say why, for whoever reads the logs.
        logger.warn("a queued job failed", { queue: name, jobId: job.id, error });
        throw error;
      }
    });
  } catch (error) {
    names.delete(name);
    throw error;
  }
}

export function queue(): Promise<PgBoss> {
  const url = env().DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: start the product with `npm start`");
  if (!globalForQueue.__scanroomQueue || globalForQueue.__scanroomQueueUrl !== url) {
    const starting = startQueue(url);
    // A failed start is not cached: the next call tries again.
    starting.catch(() => {
      if (globalForQueue.__scanroomQueue === starting) globalForQueue.__scanroomQueue = undefined;
    });
    globalForQueue.__scanroomQueue = starting;
    globalForQueue.__scanroomQueueUrl = url;
  }
  return globalForQueue.__scanroomQueue;
}

export async function stopQueue() {
  const boss = await globalForQueue.__scanroomQueue?.catch(() => undefined);
  globalForQueue.__scanroomQueue = undefined;
  await boss?.stop({ graceful: false, wait: false });
}

/**
 * Enqueues the scan pipeline's job for a ScanJob (the outbox relay's hand-over of a requested scan). The job
 * id is the ScanJob's id, so sending twice cannot create two jobs.
 */
export async function enqueueScanJob(scanJobId: string): Promise<void> {
  const boss = await queue();
  const payload: ScanJobPayload = scanJobPayloadSchema.parse({ scanJobId });
  const id = await boss.send(SCAN_QUEUE, payload, { id: scanJobId });
  // null: a job with this id exists already (handed over before), or the queue is missing (its start creates it).
  if (!id && !(await boss.getJobById(SCAN_QUEUE, scanJobId))) throw new Error(`the scan job ${scanJobId} was not enqueued (does the "${SCAN_QUEUE}" queue exist?)`);
}
