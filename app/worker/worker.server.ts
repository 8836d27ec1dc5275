import { env } from "~/env.server";
import { queue, SCAN_QUEUE, scanJobPayloadSchema, startPgBoss } from "~/jobs/queue.server";
import { logger } from "~/lib/logger.server";
import { workerConfig, type WorkerConfig } from "~/env.server";
import { processScanJob, type JobRunResult } from "./job.server";
import { findAbandonedJobs } from "~/domain/scan-lease.server";
import { settleUnsettledScans } from "~/domain/scan-outcomes.server";
import { finishAbandonedCancellations } from "./outcome.server";

/**
 * A scan worker: a pg-boss consumer of the "scan" queue (any number of them, on any machine that
 * reaches the database), plus a sweep that takes over jobs whose worker died (stale heartbeat) or
 * whose queue message was lost, and settles credits a crash left unsettled. The queue message only
 * says "look at this ScanJob"; the ScanJob row's lease decides who runs it.
 */
export interface ScanWorker {
  /** Scans running now. */
  running(): number;
  /** Stops taking work, hands running scans back to the queue, and disconnects. */
  stop(): Promise<void>;
}

export async function startScanWorker(options: { config?: WorkerConfig; connectionString?: string } = {}): Promise<ScanWorker> {
  const config = options.config ?? workerConfig();
  const connectionString = options.connectionString ?? env().DATABASE_URL;
  if (!connectionString) throw new Error("DATABASE_URL is not set: the scan worker needs the product's database");
  await queue(); // creates the queue (and pg-boss's schema) if this is the first process to use it
  // This process supervises the queue (expiry, retries): the web process only sends.
  const boss = await startPgBoss({ connectionString, max: 3, supervise: true, schedule: false, migrate: true }, "scan queue");

  const shutdown = new AbortController();
  const inFlight = new Set<Promise<unknown>>();
  let active = 0;
  let stopping = false;

  const run = (jobId: string): Promise<JobRunResult> => {
    active++;
    const promise = processScanJob(jobId, { config, shutdown: shutdown.signal }).finally(() => {
      active--;
      inFlight.delete(promise);
    });
    inFlight.add(promise);
    return promise;
  };

  for (let lane = 0; lane < config.SCAN_WORKER_CONCURRENCY; lane++) {
    await boss.work<unknown>(SCAN_QUEUE, { batchSize: 1, pollingIntervalSeconds: 2 }, async ([job]) => {
      const { scanJobId } = scanJobPayloadSchema.parse(job.data);
      const result = await run(scanJobId);
      // Handed back because this worker is stopping: let the queue deliver it again.
      if (result === "handed_back") throw new Error("the worker stopped; the scan goes back to the queue");
    });
  }

  let sweeping = false;
  const sweep = async () => {
    if (sweeping || stopping) return;
    sweeping = true;
    try {
      await settleUnsettledScans();
      // A live worker finishes its own cancellation within a heartbeat and the kill grace.
      await finishAbandonedCancellations({ staleSeconds: 2 * config.SCAN_LEASE_SECONDS + config.SCAN_KILL_GRACE_SECONDS });
      const free = config.SCAN_WORKER_CONCURRENCY - active;
      if (free <= 0) return;
      const ids = await findAbandonedJobs({ leaseSeconds: config.SCAN_LEASE_SECONDS, queuedSeconds: config.SCAN_STALE_QUEUED_SECONDS, limit: free });
      for (const id of ids) {
        if (stopping || active >= config.SCAN_WORKER_CONCURRENCY) break;
        logger.info("taking over an abandoned scan", { jobId: id });
        run(id).catch((error) => logger.error("a taken-over scan failed", { error, jobId: id }));
      }
    } catch (error) {
      logger.warn("scan sweep failed", { error });
    } finally {
      sweeping = false;
    }
  };
  const sweepMs = Math.max(1_000, Math.min(30_000, (config.SCAN_LEASE_SECONDS * 1000) / 3));
  const timer = setInterval(() => void sweep(), sweepMs);
  void sweep();

  return {
    running: () => active,
    async stop() {
      if (stopping) return;
      stopping = true;
      clearInterval(timer);
      await boss.offWork(SCAN_QUEUE).catch(() => undefined);
      shutdown.abort();
      await Promise.allSettled([...inFlight]);
      await boss.stop({ graceful: false, wait: true, close: true, timeout: 5_000 }).catch(() => undefined);
    },
  };
}
