import { db, type ScanJob } from "~/db.server";
import { storage } from "~/storage/index.server";
import { estimateSecondsLeft, STAGE_LABELS, type StageName } from "./scan-progress";
import { settleReservation, withCreditLedger } from "./credits.server";
import { AppError, notFound } from "~/lib/errors";
import { getOwnedItem } from "./item-access.server";
import { asTrainingStop } from "./training-stop";
import { acceptScan, type ScanAccepted } from "./scans.server";

/**
 * What the owner can see and do with an item's scan (issue 5): its progress and quality figures,
 * cancelling it and retrying it. The work itself happens in app/worker; the two meet in the
 * ScanJob row. Every call is scoped to the item's owner (another user's item is a 404).
 */

const ACTIVE = ["queued", "running"] as const;

async function latestScanJob(itemId: string, ownerId: string): Promise<ScanJob> {
  await getOwnedItem({ itemId, ownerId });
  const job = await db().scanJob.findFirst({ where: { itemId, userId: ownerId }, orderBy: { createdAt: "desc" } });
  if (!job) throw notFound("Scan");
  return job;
}

/** The quality figures an owner is shown (SPEC-free: issue 5's evaluation), from ScanJob.metrics. */
function presentMetrics(metrics: unknown) {
  if (!metrics || typeof metrics !== "object") return null;
  const m = metrics as Record<string, unknown>;
  const num = (key: string) => (typeof m[key] === "number" ? (m[key] as number) : null);
  const mesh = m.mesh as { triangles?: number; textureSize?: unknown } | null | undefined;
  const meshLite = m.meshLite as { triangles?: number } | null | undefined;
  const dense = m.dense as { points?: number; fusedPoints?: number; skipped?: string | null } | null | undefined;
  const training = m.training as { iterations?: number; minutes?: number; stopped?: unknown } | null | undefined;
  const stages = (m.stages ?? {}) as Record<string, { seconds?: number; skipped?: boolean } | undefined>;
  const count = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : null);
  const textureSize = Array.isArray(mesh?.textureSize) && mesh.textureSize.length === 2 && mesh.textureSize.every((v) => typeof v === "number") ? (mesh.textureSize as [number, number]) : null;
  return {
    registered_ratio: num("registeredRatio"),
    registered_images: num("registeredImages"),
    total_images: num("totalImages"),
    mean_reprojection_error: num("meanReprojectionError"),
    points: num("points"),
    splats: num("splats"),
    held_out_frames: num("heldOutFrames"),
    // The delivered models drawn from the test views (kept out of everything that fits the model) over the whole
    // frame on the viewer's background, against the undistorted photos (app/worker/stages/evaluation.server.ts).
    evaluated_views: num("evaluatedViews"),
    psnr: num("psnr"),
    ssim: num("ssim"),
    splat_coverage: num("splatCoverage"),
    mesh_psnr: num("meshPsnr"),
    mesh_ssim: num("meshSsim"),
    mesh_coverage: num("meshCoverage"),
    preview: m.preview === true,
    mesh_triangles: count(mesh?.triangles),
    mesh_lite_triangles: count(meshLite?.triangles),
    texture_size: textureSize,
    mesh_skipped: typeof m.meshSkipped === "string" ? m.meshSkipped : null,
    dense_points: count(dense?.points),
    dense_skipped: typeof dense?.skipped === "string" ? dense.skipped : null,
    trainer: typeof m.trainer === "string" ? m.trainer : null,
    trained_iterations: count(training?.iterations),
    trained_minutes: count(training?.minutes),
    // Why training ended, as the splat stage recorded it (SplatResult.stopped): "plateau", "budget", "iterations"; null if unknown.
    training_stopped: asTrainingStop(training?.stopped),
    training_failed: typeof m.trainingFailed === "string" ? m.trainingFailed : null,
    // Seconds each stage took in the run that did it (stages finished by an earlier run are not counted again).
    stage_seconds: Object.fromEntries(
      Object.entries(stages)
        .filter(([, timing]) => typeof timing?.seconds === "number")
        .map(([name, timing]) => [name, timing!.seconds as number]),
    ),
    total_seconds: num("totalSeconds"),
  };
}

export function presentScanJob(job: ScanJob, now = Date.now()) {
  const stage = (job.stage ?? null) as StageName | null;
  const running = job.status === "running";
  const elapsedMs = job.startedAt ? now - job.startedAt.getTime() : 0;
  return {
    scan_job_id: job.id,
    status: job.status,
    input: job.inputKind,
    stage,
    stage_label: stage && STAGE_LABELS[stage] ? STAGE_LABELS[stage] : null,
    progress: job.progress,
    eta_seconds: running ? estimateSecondsLeft(job.progress, elapsedMs) : null,
    error: job.error,
    advice: job.advice,
    metrics: presentMetrics(job.metrics),
    attempts: job.attempts,
    can_cancel: (ACTIVE as readonly string[]).includes(job.status),
    can_retry: job.status === "failed" || (job.status === "cancelled" && job.finishedAt !== null),
    created_at: job.createdAt.toISOString(),
    started_at: job.startedAt?.toISOString() ?? null,
    finished_at: job.finishedAt?.toISOString() ?? null,
  };
}
export type ScanStatusDto = ReturnType<typeof presentScanJob>;

/** The item's latest scan, for its owner. */
export async function getScanStatus({ itemId, ownerId }: { itemId: string; ownerId: string }): Promise<ScanStatusDto> {
  return presentScanJob(await latestScanJob(itemId, ownerId));
}

/**
 * Cancels the item's scan. A queued scan ends here and now: cancelled, item failed, credit released,
 * in one transaction. A running one is marked cancelled; its worker notices on its next heartbeat,
 * stops its tools (SIGTERM, then SIGKILL) and finishes the cancellation (app/worker/outcome.server.ts).
 */
export async function cancelScan({ itemId, ownerId }: { itemId: string; ownerId: string }): Promise<ScanStatusDto> {
  const job = await latestScanJob(itemId, ownerId);
  if (!(ACTIVE as readonly string[]).includes(job.status)) throw new AppError("conflict", "This scan is not running.");
  await withCreditLedger(ownerId, async (ctx) => {
    const queued = await ctx.tx.scanJob.updateMany({
      where: { id: job.id, status: "queued" },
      data: { status: "cancelled", finishedAt: new Date(), error: "Cancelled by the owner." },
    });
    if (queued.count === 1) {
      await ctx.tx.item.update({ where: { id: itemId }, data: { status: "failed", statusDetail: "Scan cancelled.", progress: null } });
      if (job.reservationRef) {
        await settleReservation(ctx, { reference: job.reservationRef, kind: "release", reason: `Scan of item ${itemId} cancelled` });
      }
      return;
    }
    const running = await ctx.tx.scanJob.updateMany({ where: { id: job.id, status: "running" }, data: { status: "cancelled" } });
    if (running.count !== 1) throw new AppError("conflict", "This scan has just finished.");
    await ctx.tx.item.update({ where: { id: itemId }, data: { statusDetail: "Cancelling…" } });
  });
  return getScanStatus({ itemId, ownerId });
}

/** The original upload a scan reads must still be stored for it to run again. */
async function inputsStillStored(job: ScanJob): Promise<boolean> {
  if (job.inputKind === "video") return (await storage().stat(job.inputPath)) !== null;
  return (await storage().list(job.inputPath)).length > 0;
}

/**
 * Runs a failed or cancelled scan again from its original inputs (kept after every scan): a new
 * ScanJob with a new credit reservation (the failed one was released), the item queued again.
 */
export async function retryScan({ itemId, ownerId }: { itemId: string; ownerId: string }): Promise<ScanAccepted> {
  const job = await latestScanJob(itemId, ownerId);
  if (!presentScanJob(job).can_retry) throw new AppError("conflict", "Only a failed or cancelled scan can be retried.");
  if (!(await inputsStillStored(job))) throw new AppError("conflict", "The scan's original upload is no longer stored; upload it again.");
  const item = await getOwnedItem({ itemId, ownerId });
  if (job.inputKind !== "video" && job.inputKind !== "image") throw new AppError("conflict", "This item was not made by a scan.");
  return acceptScan({
    item,
    inputKind: job.inputKind,
    inputPath: job.inputPath,
    video: job.inputKind === "video" && job.duration !== null ? { duration: job.duration, width: job.width ?? 0, height: job.height ?? 0 } : undefined,
    from: "failed",
  });
}
