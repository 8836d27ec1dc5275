import { createReadStream, existsSync, statSync } from "node:fs";
import { db } from "~/db.server";
import { findAbandonedCancellations, LeaseLostError, recordScanCancelled, recordScanFailed, recordScanPublished } from "~/domain/scan-outcomes.server";
import { enqueueItemThumbnail } from "~/jobs/thumbnail-jobs.server";
import { storage } from "~/storage/index.server";
import { COARSE_KEY_SUFFIX } from "~/domain/splat-delivery.server";
import { deliveryCopyKey } from "~/storage/keys";
import { scanWorkPrefix, type Checkpoints } from "./checkpoints.server";
import type { ClaimedJob, Lease } from "~/domain/scan-lease.server";
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
 * A scan's end as the worker sees it: the finished pipeline's files stored and its figures gathered, then
 * reported to the domain (domain/scan-outcomes.server.ts: the rows, the credit, the owner's notification),
 * then the working files removed. Failing and cancelling report the same way.
 */

/** The fused dense points before cropping (the dense stage's output). */
const UNCROPPED_POINTS = "dense/fused.ply";

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
  await recordScanPublished({
    lease,
    job,
    metrics,
    published: {
      ply: { key: plyKey, bytes: exported.ply.bytes },
      delivery:
        exported.delivery && deliveryKey
          ? {
              key: deliveryKey,
              bytes: exported.delivery.bytes,
              format: exported.delivery.format,
              coarse: coarseKey && coarse ? { key: coarseKey, bytes: coarse.bytes } : null,
            }
          : null,
      mesh: glbKey && exported.glb ? { key: glbKey, bytes: exported.glb.bytes } : null,
      meshLite: glbLiteKey && liteSize !== null ? { key: glbLiteKey, bytes: liteSize } : null,
      thumbnailKey: thumbnail,
      openingView: exported.openingView ?? null,
      trained: splat.trained,
    },
  });
  // The capture photo stays the thumbnail until the rendered one replaces it (and if rendering fails).
  await enqueueItemThumbnail(await db().item.findUniqueOrThrow({ where: { id: job.itemId }, select: { id: true, modelType: true, fileKey: true, fileFormat: true, meshKey: true } }));
  await cp.clear();
  return metrics;
}

/** Ends a scan as failed (domain: item failed with advice, credit released, owner told) and removes its working files. */
export async function failScan(input: {
  lease: Lease;
  job: ClaimedJob;
  error: string;
  advice: string | null;
  metrics?: ScanMetrics;
  checkpoints?: Checkpoints;
}): Promise<void> {
  await recordScanFailed({ lease: input.lease, job: input.job, error: input.error, advice: input.advice, metrics: input.metrics });
  await input.checkpoints?.clear();
}

/** The owner cancelled a running scan and its tools are stopped: the cancellation is recorded and the work removed. */
export async function finishCancelledScan(input: { lease: Lease; job: ClaimedJob; checkpoints?: Checkpoints }): Promise<void> {
  await recordScanCancelled({ lease: input.lease, job: input.job });
  await input.checkpoints?.clear();
}

/**
 * Running scans cancelled by their owner whose worker died before it could finish the cancellation
 * (no heartbeat for `staleSeconds`): ended here — item failed "Scan cancelled.", the credit released
 * in the same transaction, the stored working files removed. Safe on any worker, any number of times.
 */
export async function finishAbandonedCancellations(input: { staleSeconds: number; limit?: number }): Promise<number> {
  const abandoned = await findAbandonedCancellations(input);
  for (const { lease, job } of abandoned) {
    try {
      await recordScanCancelled({ lease, job });
      await storage().deletePrefix(scanWorkPrefix(job.itemId));
    } catch (error) {
      if (!(error instanceof LeaseLostError)) throw error;
    }
  }
  return abandoned.length;
}
