import { createReadStream, existsSync, statSync } from "node:fs";
import { db, type Prisma } from "~/db.server";
import { consumeCredits, releaseCredits, settleReservation, withCreditLedger, type Tx } from "~/domain/credits.server";
import { isAutomaticThumbnailKey } from "~/domain/item-thumbnails.server";
import { notify } from "~/domain/notifications.server";
import { enqueueItemThumbnail } from "~/jobs/thumbnail-jobs.server";
import { migrateViewerSettings, storedViewerSettings } from "~/domain/viewer-settings";
import { storage } from "~/storage/index.server";
import { COARSE_KEY_SUFFIX } from "~/domain/splat-delivery.server";
import { deliveryCopyKey } from "~/storage/keys";
import { scanWorkPrefix, type Checkpoints } from "./checkpoints.server";
import type { ClaimedJob, Lease } from "./lease.server";
import { leaseWhere } from "./lease.server";
import type { PipelineOutcome, StageTiming } from "./pipeline.server";
import type { StageName } from "~/domain/scan-progress";
import type { MappingResult, MatchingResult } from "./stages/colmap.server";
import type { DenseResult } from "./stages/dense.server";
import type { ExportResult } from "./stages/export.server";
import type { MeshResult } from "./stages/mesh.server";
import type { FramesResult } from "./stages/input.server";
import type { EvaluationResult } from "./stages/evaluation.server";
import type { SplatResult } from "./stages/splat.server";

/**
 * How a scan ends: published (item ready, credit consumed), failed (item failed with advice, credit
 * released) or cancelled (credit released). The status change, fenced by the lease, and the ledger
 * entry that settles the reserved credit commit in one transaction holding the user's ledger lock:
 * either both happen or neither. `settleUnsettledScans` settles scans that ended without a worker
 * (a queued scan cancelled by its owner).
 */
export class LeaseLostError extends Error {
  constructor() {
    super("the scan's lease was lost (cancelled, or taken over by another worker)");
    this.name = "LeaseLostError";
  }
}

/** The fused dense points before cropping (the dense stage's output). */
const UNCROPPED_POINTS = "dense/fused.ply";

const reference = (job: Pick<ClaimedJob, "id" | "reservationRef">) => job.reservationRef ?? `scan:${job.id}`;

/**
 * Runs the fenced status change `change` and settles the scan's credit in the same transaction.
 * A job without a reservation (made before the ledger existed) only changes status.
 */
async function endScanSettlingCredit(job: ClaimedJob, settlement: { kind: "consumption" | "release"; reason: string }, change: (tx: Tx) => Promise<void>) {
  const ref = reference(job);
  await withCreditLedger(job.userId, async (ctx) => {
    await change(ctx.tx);
    const reserved = await ctx.tx.ledgerEntry.count({ where: { userId: job.userId, reference: ref, kind: "reservation" } });
    if (reserved > 0) await settleReservation(ctx, { reference: ref, kind: settlement.kind, reason: settlement.reason.slice(0, 500) });
  });
}

export interface ScanMetrics {
  registeredRatio: number;
  registeredImages: number;
  totalImages: number;
  meanReprojectionError: number;
  points: number;
  splats?: number;
  heldOutFrames?: number;
  psnr?: number | null;
  ssim?: number | null;
  preview?: boolean;
  trainer?: string | null;
  matching?: MatchingResult["mode"];
  frameSelection?: FramesResult["selection"];
  mesh?: { vertices: number; triangles: number; bytes: number; textureSize?: [number, number] | null } | null;
  meshLite?: { triangles: number | null; bytes: number | null } | null;
  dense?: { skipped: string | null; points: number | null; fusedPoints: number | null; images: number | null; seconds: Record<string, number> | null } | null;
  training?: { iterations: number | null; minutes: number | null; stopped?: SplatResult["stopped"] | null; resumedFrom: number; log?: SplatResult["log"] | null } | null;
  trainingFailed?: string | null;
  meshSkipped?: string | null;
  delivery?: ExportResult["delivery"];
  outputs?: { ply: string; glb: string | null; delivery: string | null; deliveryCoarse?: string | null; sparse: string; uncroppedPoints?: string | null };
  stages: Partial<Record<StageName, StageTiming>>;
  totalSeconds?: number;
}

export function stageMetrics(outcome: Pick<PipelineOutcome, "results" | "timings">): ScanMetrics {
  const mapping = outcome.results.mapping as MappingResult | undefined;
  return {
    registeredRatio: mapping && mapping.total ? Math.round((mapping.registered / mapping.total) * 1000) / 1000 : 0,
    registeredImages: mapping?.registered ?? 0,
    totalImages: mapping?.total ?? 0,
    meanReprojectionError: mapping?.meanReprojectionError ?? -1,
    points: mapping?.points ?? 0,
    matching: (outcome.results.matching as MatchingResult | undefined)?.mode,
    frameSelection: (outcome.results.frames as FramesResult | undefined)?.selection ?? null,
    stages: outcome.timings,
  };
}

async function upload(key: string, file: string, contentType: string) {
  await storage().write(key, createReadStream(file), { contentType });
}

/** Publishes a finished pipeline: outputs stored, item ready, credit consumed, owner notified, work cleaned. */
export async function publishScan(input: {
  lease: Lease;
  job: ClaimedJob;
  outcome: Extract<PipelineOutcome, { kind: "finished" }>;
  startedAt: number;
}): Promise<ScanMetrics> {
  const { lease, job, outcome } = input;
  const publishStarted = Date.now();
  const cp: Checkpoints = outcome.checkpoints;
  const exported = outcome.results.export as ExportResult;
  const splat = outcome.results.splat as SplatResult;
  const evaluation = outcome.results.evaluation as EvaluationResult;
  const dense = outcome.results.dense as DenseResult | undefined;
  const exportManifest = await cp.readManifest("export");
  const plyDigest = exportManifest?.outputs.find((o) => o.path === "export/model.ply")?.sha256;
  if (!plyDigest) throw new Error("the export stage's manifest is missing");
  // Keys named by content: publishing again after a crash writes the same objects.
  const tag = plyDigest.slice(0, 16);
  const base = `items/${job.itemId}/scan/`;
  const plyKey = `${base}model-${tag}.ply`;
  const glbKey = exported.glb ? `${base}mesh-${tag}.glb` : null;
  const liteSize = glbKey && existsSync(cp.local("export/mesh-lite.glb")) ? statSync(cp.local("export/mesh-lite.glb")).size : null;
  const glbLiteKey = liteSize !== null ? `${base}mesh-lite-${tag}.glb` : null;
  // The dense points before cropping to the subject, kept for the owner (issue 14, item 6).
  const uncroppedKey = existsSync(cp.local(UNCROPPED_POINTS)) ? `${base}points-uncropped-${tag}.ply` : null;
  const deliveryKey = exported.delivery ? deliveryCopyKey(job.itemId, plyKey, exported.delivery.format) : null;
  // Absent from export results recorded before coarse copies existed (a resumed scan): none then.
  const coarse = exported.delivery?.coarse ?? null;
  const coarseKey = deliveryKey && coarse ? deliveryCopyKey(job.itemId, plyKey, COARSE_KEY_SUFFIX) : null;
  const thumbnail = `items/${job.itemId}/thumbnail/scan-${tag}`;
  await upload(plyKey, cp.local("export/model.ply"), "application/octet-stream");
  if (glbKey) await upload(glbKey, cp.local("export/mesh.glb"), "model/gltf-binary");
  if (glbLiteKey) await upload(glbLiteKey, cp.local("export/mesh-lite.glb"), "model/gltf-binary");
  if (uncroppedKey) await upload(uncroppedKey, cp.local(UNCROPPED_POINTS), "application/octet-stream");
  if (deliveryKey) await upload(deliveryKey, cp.local("export/model.sog"), "application/octet-stream");
  if (coarseKey) await upload(coarseKey, cp.local("export/model.coarse.sog"), "application/octet-stream");
  await upload(thumbnail, cp.local("export/thumbnail.jpg"), "image/jpeg");
  for (const name of ["cameras.txt", "images.txt", "points3D.txt"]) await upload(`${base}sparse/${name}`, cp.local(`sparse-txt/${name}`), "text/plain");

  const timings = { ...outcome.timings, publish: { seconds: Math.round((Date.now() - publishStarted) / 100) / 10, skipped: false, attempt: job.attempts } };
  const metrics: ScanMetrics = {
    ...stageMetrics({ results: outcome.results, timings }),
    ...evaluation,
    preview: !splat.trained,
    trainer: splat.trainer,
    mesh: exported.glb ? { ...exported.glb, textureSize: (outcome.results.mesh as MeshResult | undefined)?.textureSize ?? null } : null,
    meshLite: glbLiteKey ? { triangles: (outcome.results.mesh as MeshResult | undefined)?.liteTriangles ?? null, bytes: liteSize } : null,
    meshSkipped: exported.meshSkipped,
    dense: dense ? { skipped: dense.skipped, points: dense.points ?? null, fusedPoints: dense.fusedPoints ?? null, images: dense.images ?? null, seconds: dense.seconds ?? null } : null,
    training: splat.trained ? { iterations: splat.iterations ?? null, minutes: splat.minutes ?? null, stopped: splat.stopped ?? null, resumedFrom: splat.resumedFrom ?? 0, log: splat.log ?? null } : null,
    trainingFailed: splat.failure ?? null,
    delivery: exported.delivery,
    outputs: { ply: plyKey, glb: glbKey, delivery: deliveryKey, deliveryCoarse: coarseKey, sparse: `${base}sparse/`, uncroppedPoints: uncroppedKey },
    totalSeconds: Math.round((Date.now() - input.startedAt) / 100) / 10,
  };
  const item = await db().item.findUniqueOrThrow({ where: { id: job.itemId }, select: { name: true, thumbnailKey: true, settings: true, settingsVersion: true } });
  // The scan opens from a capture camera unless its owner already chose an opening view.
  const settings = migrateViewerSettings(item.settings, item.settingsVersion);
  const opening = exported.openingView;
  const openingSettings =
    settings.camera === null && opening
      ? storedViewerSettings({ ...settings, camera: { position: opening.position, target: opening.target, fov: opening.fov } })
      : null;
  await endScanSettlingCredit(job, { kind: "consumption", reason: `Scan of item ${job.itemId} finished` }, async (tx) => {
    const { count } = await tx.scanJob.updateMany({
      where: leaseWhere(lease),
      data: { status: "succeeded", stage: "publish", progress: 1, metrics: metrics as unknown as Prisma.InputJsonValue, finishedAt: new Date(), error: null, advice: null },
    });
    if (count !== 1) throw new LeaseLostError();
    await tx.item.update({
      where: { id: job.itemId },
      data: {
        status: "ready",
        statusDetail: null,
        progress: 1,
        fileKey: plyKey,
        fileSize: BigInt(exported.ply.bytes),
        fileFormat: "ply",
        ...(exported.delivery && deliveryKey
          ? { deliveryKey, deliverySize: BigInt(exported.delivery.bytes), deliveryFormat: exported.delivery.format, deliverySourceKey: plyKey }
          : { deliveryKey: null, deliverySize: null, deliveryFormat: null, deliverySourceKey: null }),
        deliveryCoarseKey: coarseKey,
        deliveryCoarseSize: coarseKey && coarse ? BigInt(coarse.bytes) : null,
        meshKey: glbKey,
        meshSize: glbKey && exported.glb ? BigInt(exported.glb.bytes) : null,
        meshLiteKey: glbLiteKey,
        meshLiteSize: liteSize !== null ? BigInt(liteSize) : null,
        ...(openingSettings ? { settings: openingSettings.settings as Prisma.InputJsonValue, settingsVersion: openingSettings.settingsVersion } : {}),
        isPreview: !splat.trained,
        // An owner's own thumbnail is kept; an automatic one is replaced (item-thumbnails.server.ts).
        ...(item.thumbnailKey && !isAutomaticThumbnailKey(item.thumbnailKey) ? {} : { thumbnailKey: thumbnail }),
      },
    });
  });
  // The capture photo stays the thumbnail until the rendered one replaces it (and if rendering fails).
  await enqueueItemThumbnail(await db().item.findUniqueOrThrow({ where: { id: job.itemId }, select: { id: true, modelType: true, fileKey: true, fileFormat: true, meshKey: true } }));
  await notify({
    userId: job.userId,
    kind: "scan_finished",
    title: "Your scan is ready",
    body: splat.trained
      ? `"${item.name}" is ready to view.`
      : `"${item.name}" is ready to view; its splat was not trained, it is built directly from the scan's points.`,
    link: `/item/${job.itemId}`,
    dedupeKey: `scan:${job.id}:finished`,
  });
  await cp.clear();
  return metrics;
}

/** Ends a scan as failed: item failed with the reason and advice, credit released, owner notified. */
export async function failScan(input: {
  lease: Lease;
  job: ClaimedJob;
  error: string;
  advice: string | null;
  metrics?: ScanMetrics;
  checkpoints?: Checkpoints;
}): Promise<void> {
  const { lease, job } = input;
  const item = await db().item.findUniqueOrThrow({ where: { id: job.itemId }, select: { name: true } });
  const detail = input.advice ? `${input.error} ${input.advice}` : input.error;
  await endScanSettlingCredit(job, { kind: "release", reason: `Scan of item ${job.itemId} failed: ${input.error}` }, async (tx) => {
    const { count } = await tx.scanJob.updateMany({
      where: leaseWhere(lease),
      data: {
        status: "failed",
        error: input.error,
        advice: input.advice,
        finishedAt: new Date(),
        ...(input.metrics ? { metrics: input.metrics as unknown as Prisma.InputJsonValue } : {}),
      },
    });
    if (count !== 1) throw new LeaseLostError();
    await tx.item.update({ where: { id: job.itemId }, data: { status: "failed", statusDetail: detail.slice(0, 1000), progress: null } });
  });
  await notify({
    userId: job.userId,
    kind: "scan_failed",
    title: "Your scan could not be finished",
    body: `"${item.name}": ${detail}`,
    link: `/item/${job.itemId}`,
    dedupeKey: `scan:${job.id}:failed`,
  });
  await input.checkpoints?.clear();
}

/** The owner cancelled a running scan: its tools are stopped; the credit goes back and the work is removed. */
export async function finishCancelledScan(input: { lease: Lease; job: ClaimedJob; checkpoints?: Checkpoints }): Promise<void> {
  const { lease, job } = input;
  await endScanSettlingCredit(job, { kind: "release", reason: `Scan of item ${job.itemId} cancelled` }, async (tx) => {
    const { count } = await tx.scanJob.updateMany({
      where: { id: lease.jobId, attempts: lease.token, status: "cancelled" },
      data: { finishedAt: new Date(), error: "Cancelled by the owner." },
    });
    if (count !== 1) throw new LeaseLostError();
    await tx.item.updateMany({
      where: { id: job.itemId, status: { in: ["queued", "processing"] } },
      data: { status: "failed", statusDetail: "Scan cancelled.", progress: null },
    });
  });
  await input.checkpoints?.clear();
}

/**
 * Finished scans whose reservation was never settled (the worker died between the status change
 * and the ledger call, or a queued scan was cancelled): consumed when the scan succeeded, released
 * otherwise. Safe to run any number of times, on any worker.
 */
export async function settleUnsettledScans(limit = 20): Promise<number> {
  const rows = await db().$queryRaw<Array<{ id: string; userId: string; itemId: string; status: string; ref: string }>>`
    SELECT j.id, j."userId", j."itemId", j.status::text AS status, j."reservationRef" AS ref
      FROM "ScanJob" j
     WHERE j.status IN ('succeeded', 'failed', 'cancelled')
       AND j."reservationRef" IS NOT NULL
       AND EXISTS (SELECT 1 FROM "LedgerEntry" r WHERE r.reference = j."reservationRef" AND r.kind = 'reservation')
       AND NOT EXISTS (SELECT 1 FROM "LedgerEntry" s WHERE s.reference = j."reservationRef" AND s.kind IN ('consumption', 'release'))
     LIMIT ${limit}`;
  for (const row of rows) {
    if (row.status === "succeeded") await consumeCredits({ userId: row.userId, reference: row.ref, reason: `Scan of item ${row.itemId} finished` });
    else await releaseCredits({ userId: row.userId, reference: row.ref, reason: `Scan of item ${row.itemId} ${row.status}` });
  }
  return rows.length;
}

/**
 * Running scans cancelled by their owner whose worker died before it could finish the cancellation
 * (no heartbeat for `staleSeconds`): ended here — item failed "Scan cancelled.", the credit released
 * in the same transaction, the stored working files removed. Safe on any worker, any number of times.
 */
export async function finishAbandonedCancellations(input: { staleSeconds: number; limit?: number }): Promise<number> {
  const rows = await db().$queryRaw<Array<{ id: string; userId: string; itemId: string; attempts: number; reservationRef: string | null }>>`
    SELECT id, "userId", "itemId", attempts, "reservationRef" FROM "ScanJob"
     WHERE status = 'cancelled' AND "finishedAt" IS NULL
       AND "updatedAt" < (now() AT TIME ZONE 'UTC') - ${input.staleSeconds}::float8 * interval '1 second'
     LIMIT ${input.limit ?? 20}`;
  for (const row of rows) {
    const job = { ...row, reservationRef: row.reservationRef } as ClaimedJob;
    try {
      await finishCancelledScan({ lease: { jobId: row.id, token: row.attempts }, job });
      await storage().deletePrefix(scanWorkPrefix(row.itemId));
    } catch (error) {
      if (!(error instanceof LeaseLostError)) throw error;
    }
  }
  return rows.length;
}
