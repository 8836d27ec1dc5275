import os from "node:os";
import path from "node:path";
import { z } from "zod";

/**
 * The scan worker's settings, read from the environment once (zod, like app/env.server.ts; kept
 * here because only the worker reads them). docs/scan-worker.md explains each for a GPU worker.
 */
const optional = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== "" ? v.trim() : undefined));
const seconds = (fallback: number) => z.coerce.number().positive().default(fallback);

const schema = z.object({
  /** Where jobs' working files live (per job, removed after publishing). */
  SCAN_WORK_DIR: z.string().default(".data/scan-work"),
  /** Scans run at once by this worker (each uses every core it is given). */
  SCAN_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(1),
  /** Threads each tool may use. */
  SCAN_THREADS: z.coerce.number().int().min(1).default(Math.max(1, os.availableParallelism?.() ?? os.cpus().length)),
  /** A job whose heartbeat is older than this belongs to a dead worker and may be taken over. */
  SCAN_LEASE_SECONDS: seconds(60),
  SCAN_HEARTBEAT_SECONDS: seconds(10),
  /** How long a queued scan may wait before an idle worker takes it even without a queue message. */
  SCAN_STALE_QUEUED_SECONDS: seconds(300),
  SCAN_STAGE_TIMEOUT_SECONDS: seconds(2 * 60 * 60),
  SCAN_JOB_TIMEOUT_SECONDS: seconds(5 * 60 * 60),
  SCAN_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(3),
  /** Free disk space needed to start a job, besides 6× its input size. */
  SCAN_MIN_FREE_MB: z.coerce.number().int().min(0).default(1024),
  /**
   * A GPU trainer as a template, e.g. `python simple_trainer.py default --data_dir {dataset} --result_dir {output}`.
   * Placeholders: {dataset} {images} {sparse} {output} {holdout} {renders} {iterations} {threads}.
   */
  SCAN_TRAINER_COMMAND: optional,
  SCAN_TRAINER_TIMEOUT_SECONDS: seconds(3 * 60 * 60),
  /**
   * Our CPU trainer (native/train, issue 15), used when no SCAN_TRAINER_COMMAND is set: its wall-clock
   * budget (0 = no training: the splat is built from the points), an iteration cap, how often it
   * checkpoints (mirrored to storage, so another worker resumes), and its training resolution.
   */
  SCAN_TRAIN_MINUTES: z.coerce.number().min(0).max(24 * 60).default(6),
  SCAN_TRAIN_MAX_ITERATIONS: z.coerce.number().int().positive().default(30_000),
  SCAN_TRAIN_CHECKPOINT_SECONDS: seconds(120),
  SCAN_TRAIN_LONG_SIDE: z.coerce.number().int().min(64).max(4096).default(480),
  /**
   * Highest spherical-harmonics degree the trainer raises colours to (0–3). 0 by default: a degree-3 splat
   * trains and renders, but its .sog delivery copy (splat-transform's SH compression) took 290–448 s for 28k
   * splats here, past the delivery time limit, so scans would publish without the compact copy.
   */
  SCAN_TRAIN_SH_DEGREE: z.coerce.number().int().min(0).max(3).default(0),
  /** Weight λ of the D-SSIM term in the trainer's loss, (1 − λ)·L1 + λ·(1 − SSIM). */
  SCAN_TRAIN_SSIM_WEIGHT: z.coerce.number().min(0).max(1).default(0.2),
  /**
   * Opacity reset (3DGS): every this fraction of the budget, while densification runs (its first 70 %), the
   * trainer lowers every opacity to 0.01 so floaters must earn theirs back or be pruned; 0 turns it off.
   * Off by default: the paper resets every 3,000 of 30,000 iterations, and our CPU budgets run hundreds to a
   * few thousand — on the CI set's 3 minutes (≈390 iterations) resets at 0.175 cost 3.1 dB held-out
   * (28.40 → 25.29 dB, measured side by side, docs/scan-worker.md).
   */
  SCAN_TRAIN_OPACITY_RESET_EVERY: z.coerce.number().min(0).max(1).default(0),
  SCAN_TRAINER_ITERATIONS: z.coerce.number().int().positive().default(30_000),
  /** Dense stereo and fusion (issue 14): on by default; off publishes from the sparse points only. */
  SCAN_DENSE: z.enum(["on", "off"]).default("on"),
  /** The Poisson mesh export (CPU): on by default, time-boxed; a slow or failed mesh only skips the GLB. */
  SCAN_MESH: z.enum(["on", "off"]).default("on"),
  SCAN_MESH_TIMEOUT_SECONDS: seconds(180),
  SCAN_MESH_DEPTH: z.coerce.number().int().min(5).max(12).default(8),
  /** Folder of our native programs (native/, built by `npm run native:build`). */
  SCANROOM_NATIVE_BIN: z.string().default(path.join(process.cwd(), "native/build/bin")),
  COLMAP_BIN: z.string().default("colmap"),
  FFMPEG_BIN: z.string().default("ffmpeg"),
  FFPROBE_BIN: z.string().default("ffprobe"),
  /** Seconds between a tool's SIGTERM and SIGKILL when a scan is cancelled. */
  SCAN_KILL_GRACE_SECONDS: seconds(10),
});

export type WorkerConfig = z.infer<typeof schema> & { workDir: string };

let cached: WorkerConfig | undefined;

export function parseWorkerConfig(source: Record<string, string | undefined> = process.env): WorkerConfig {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    throw new Error(`Invalid scan worker configuration:\n${parsed.error.issues.map((i) => `  - ${i.path.join(".")}: ${i.message}`).join("\n")}`);
  }
  return { ...parsed.data, workDir: path.resolve(parsed.data.SCAN_WORK_DIR) };
}

export function workerConfig(): WorkerConfig {
  cached ??= parseWorkerConfig();
  return cached;
}

/** Which trainer the splat stage runs (stages/splat.server.ts), as the worker's start-up line says it. */
export function describeTrainer(config: Pick<WorkerConfig, "SCAN_TRAINER_COMMAND" | "SCAN_TRAIN_MINUTES">): string {
  if (config.SCAN_TRAINER_COMMAND) return "SCAN_TRAINER_COMMAND (external, e.g. a GPU trainer)";
  if (config.SCAN_TRAIN_MINUTES === 0) return "none: SCAN_TRAIN_MINUTES=0, splats built from the points";
  return `ours on the CPU (native/train), up to ${config.SCAN_TRAIN_MINUTES} min per scan`;
}
