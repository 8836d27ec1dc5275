import { db } from "~/db.server";
import { logger } from "~/lib/logger.server";
import { storage } from "~/storage/index.server";
import { itemPrefix } from "~/storage/keys";
import { Checkpoints } from "./checkpoints.server";
import type { WorkerConfig } from "~/env.server";
import { claimJob, heartbeat, recordScanProgress, releaseLease, type ClaimedJob, type Lease } from "~/domain/scan-lease.server";
import { LeaseLostError } from "~/domain/scan-outcomes.server";
import { failScan, finishCancelledScan, publishScan, stageMetrics } from "./outcome.server";
import { jobDir, runStages, type PipelineReporter } from "./pipeline.server";
import { ToolError } from "~/tools/run-tool.server";
import { overallProgress, progressDetail, type StageName } from "~/domain/scan-progress";
import { ScanFailure } from "./stage";

/**
 * One scan job, start to end, under a lease: claim it, keep the lease alive with a heartbeat (which
 * also notices a cancel), run the stages, and end it — published, failed with advice, cancelled,
 * or handed back to the queue when this worker stops or hits an unexpected error.
 */
export type JobRunResult = "published" | "failed" | "cancelled" | "not_claimed" | "handed_back" | "lost";

type AbortReason = "cancelled" | "lost" | "shutdown" | "timeout";

const PROGRESS_WRITE_MS = 2_000;

export const GENERIC_FAILURE = "The scan could not be finished because of a problem on our side. Your credit has been returned; please try again.";

function createReporter(lease: Lease, job: ClaimedJob, startedAt: number, onLost: () => void): PipelineReporter & { flush(): Promise<void> } {
  let chain: Promise<unknown> = Promise.resolve();
  let lastWrite = 0;
  let current: StageName = "ingest";
  const write = (stage: StageName, fraction: number) => {
    const overall = overallProgress(stage, fraction);
    const detail = progressDetail(stage, overall, Date.now() - startedAt);
    chain = chain
      .then(async () => {
        if (!(await recordScanProgress(lease, job.itemId, { stage, overall, detail }))) onLost();
      })
      .catch((error) => logger.warn("scan progress was not saved", { error, jobId: job.id }));
  };
  return {
    stage(name) {
      current = name;
      lastWrite = Date.now();
      write(name, 0);
      return chain.then(() => undefined);
    },
    progress(name, fraction) {
      if (name !== current) return;
      const now = Date.now();
      if (now - lastWrite < PROGRESS_WRITE_MS && fraction < 1) return;
      lastWrite = now;
      write(name, fraction);
    },
    flush: () => chain.then(() => undefined),
  };
}

/**
 * The owner deleted the item while its scan ran (the ScanJob went with it): nothing will publish, so
 * this worker removes what it wrote — its working files and anything under the item's prefix.
 */
async function cleanUpIfItemDeleted(job: ClaimedJob, checkpoints: Checkpoints) {
  if (await db().item.findUnique({ where: { id: job.itemId }, select: { id: true } })) return;
  await checkpoints.clear().catch(() => undefined);
  await storage().deletePrefix(itemPrefix(job.itemId)).catch(() => undefined);
}

export async function processScanJob(jobId: string, options: { config: WorkerConfig; shutdown?: AbortSignal }): Promise<JobRunResult> {
  const { config } = options;
  const job = await claimJob(jobId, config.SCAN_LEASE_SECONDS);
  if (!job) return "not_claimed";
  const lease: Lease = { jobId, token: job.attempts };
  const startedAt = Date.now();
  const checkpoints = new Checkpoints(job.itemId, jobDir(config, job.id));
  const log = (message: string, extra: Record<string, unknown> = {}) => logger.info(message, { jobId, attempt: job.attempts, ...extra });
  log("scan claimed", { resumedFrom: job.stage });

  if (job.attempts > config.SCAN_MAX_ATTEMPTS) {
    await failScan({ lease, job, error: GENERIC_FAILURE, advice: null, checkpoints });
    return "failed";
  }

  const controller = new AbortController();
  let reason: AbortReason | null = null;
  const abort = (why: AbortReason) => {
    if (reason) return;
    reason = why;
    log(`scan stopping: ${why}`);
    controller.abort(why);
  };
  const beat = setInterval(() => {
    heartbeat(lease)
      .then((state) => {
        if (state === "cancelled") abort("cancelled");
        else if (state === "lost") abort("lost");
      })
      .catch((error) => logger.warn("scan heartbeat failed", { error, jobId }));
  }, config.SCAN_HEARTBEAT_SECONDS * 1000);
  const onShutdown = () => abort("shutdown");
  options.shutdown?.addEventListener("abort", onShutdown, { once: true });
  if (options.shutdown?.aborted) abort("shutdown");
  // The job's time limit counts from its first start, across resumptions.
  const firstStart = job.startedAt ? job.startedAt.getTime() : startedAt;
  const deadline = Math.max(firstStart + config.SCAN_JOB_TIMEOUT_SECONDS * 1000, startedAt + 60_000);
  const limit = setTimeout(() => abort("timeout"), Math.max(0, deadline - Date.now()));
  const reporter = createReporter(lease, job, startedAt, () => {
    void heartbeat(lease).then((state) => abort(state === "cancelled" ? "cancelled" : "lost"));
  });

  try {
    const outcome = await runStages({
      job: { id: job.id, itemId: job.itemId, inputKind: job.inputKind, inputPath: job.inputPath, duration: job.duration, attempt: job.attempts },
      config,
      signal: controller.signal,
      reporter,
      deadline,
    });
    await reporter.flush();
    if (outcome.kind === "gate_failed") {
      await failScan({
        lease,
        job,
        error: outcome.mapping.gate.error ?? "The scan did not pass the quality check.",
        advice: outcome.mapping.gate.advice,
        metrics: stageMetrics(outcome),
        checkpoints,
      });
      log("scan failed the quality gate", { gate: outcome.mapping.gate.failed });
      return "failed";
    }
    await reporter.stage("publish");
    await reporter.flush();
    const metrics = await publishScan({ lease, job, outcome, startedAt });
    log("scan published", { seconds: metrics.totalSeconds, splats: metrics.splats, registered: metrics.registeredRatio });
    return "published";
  } catch (error) {
    await reporter.flush();
    const stopped = reason as AbortReason | null;
    if (stopped === "cancelled") {
      await finishCancelledScan({ lease, job, checkpoints }).catch((e) => logger.warn("cancelling a scan failed", { error: e, jobId }));
      return "cancelled";
    }
    if (stopped === "lost" || error instanceof LeaseLostError) {
      await cleanUpIfItemDeleted(job, checkpoints);
      return "lost";
    }
    if (stopped === "shutdown") {
      await releaseLease(lease);
      return "handed_back";
    }
    if (stopped === "timeout" || (error instanceof ToolError && error.reason === "timeout")) {
      await failScan({ lease, job, error: "The scan took longer than this server allows and was stopped.", advice: "Try a shorter video or fewer photos.", checkpoints });
      return "failed";
    }
    if (error instanceof ScanFailure) {
      await failScan({ lease, job, error: error.message, advice: error.advice, checkpoints });
      return "failed";
    }
    logger.error("scan stage failed unexpectedly", { error, jobId, attempt: job.attempts });
    if (job.attempts < config.SCAN_MAX_ATTEMPTS) {
      // Another try (this worker or another) resumes from the last finished stage.
      await releaseLease(lease, error instanceof Error ? error.message.slice(0, 500) : String(error));
      throw error;
    }
    await failScan({ lease, job, error: GENERIC_FAILURE, advice: null, checkpoints });
    return "failed";
  } finally {
    clearInterval(beat);
    clearTimeout(limit);
    options.shutdown?.removeEventListener("abort", onShutdown);
  }
}
