import { existsSync } from "node:fs";
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { parsePoints } from "../colmap-model";
import { z } from "zod";
import { logger } from "~/lib/logger.server";
import { DEFAULT_BACKGROUND } from "~/viewer/background";
import { expandPlaceholders, splitCommandLine, ToolError } from "~/tools/run-tool.server";
import { readDensePly } from "../dense-points";
import { encodeSplatPly, validateSplatPly } from "~/formats/splat-ply";
import { TRAINING_STOPS, type TrainingStop } from "~/domain/training-stop";
import { denseSplatsFromPoints, previewSplatsFromPoints } from "../splats-from-points";
import type { StageContext, StageDefinition } from "../stage";
import { parseNativeProgress, parseTrainerProgress } from "../tool-progress";
import { framesKeptOut, type FramesResult } from "./input.server";

export interface SplatResult {
  splats: number;
  /** True when a trainer made the splat; false for one built directly from the points. */
  trained: boolean;
  /** "scanroom-cpu" (native/train), a GPU trainer's program name, or null. */
  trainer: string | null;
  iterations?: number;
  minutes?: number;
  /**
   * Why the CPU trainer stopped: "plateau" (the validation views stopped improving), "budget" (SCAN_TRAIN_MINUTES, the
   * ceiling) or "iterations" (SCAN_TRAIN_MAX_ITERATIONS). Absent for other trainers.
   */
  stopped?: TrainingStop;
  /** The iteration a resumed training started from (0: from the start). */
  resumedFrom?: number;
  /** Why training failed and the untrained splat was published instead. */
  failure?: string | null;
  /**
   * The CPU trainer's own log, before cropping and export: mean PSNR of the validation views and of a few training
   * views (each named), drawn at the dataset's size on the training background. Not the scan's quality (the
   * evaluation stage measures the delivered model).
   */
  log?: { validationPsnr: number | null; trainViews: Array<{ name: string; psnr: number }> };
}

/** The name our CPU trainer is recorded under. */
export const CPU_TRAINER = "scanroom-cpu";
const CHECKPOINT = "train/checkpoint.bin";
/** About this many sky splats start far out in the directions the cameras see (native/train/sky.h). */
export const SKY_SPLATS = 2000;

/** The trainer's name for the record (its program, never its arguments). */
function trainerName(template: string) {
  return path.basename(splitCommandLine(template)[0] ?? "trainer");
}

/** The newest .ply under a folder (trainers write e.g. point_cloud/iteration_30000/point_cloud.ply). */
async function newestPly(dir: string): Promise<string | null> {
  let best: { file: string; mtime: number } | null = null;
  const walk = async (folder: string) => {
    for (const entry of await readdir(folder, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.name.endsWith(".ply")) {
        const { mtimeMs } = await stat(full);
        if (!best || mtimeMs > best.mtime) best = { file: full, mtime: mtimeMs };
      }
    }
  };
  await walk(dir);
  return (best as { file: string } | null)?.file ?? null;
}

/**
 * With SCAN_TRAINER_COMMAND set (a GPU worker, docs/scan-worker.md): undistort the images, lay out
 * a COLMAP dataset (images/, sparse/0/), run the trainer as its own process and take the .ply it
 * writes. The test and validation frames are listed in {holdout}: it must not train on them. The
 * evaluation stage scores the delivered model itself, so renders a trainer leaves in {renders} are not read.
 */
async function trainSplat(ctx: StageContext, template: string): Promise<string> {
  const frames = ctx.results.frames as FramesResult;
  for (const dir of ["dataset", "trainer-output", "renders"]) await rm(ctx.path(dir), { recursive: true, force: true });
  await ctx.tool({
    command: ctx.config.COLMAP_BIN,
    args: ["image_undistorter", "--image_path", ctx.path("images"), "--input_path", ctx.path("sparse"), "--output_path", ctx.path("dataset"), "--output_type", "COLMAP"],
    onProgress: (f) => ctx.progress(0.1 * f),
  });
  await mkdir(ctx.path("dataset/sparse/0"), { recursive: true });
  for (const name of ["cameras.bin", "images.bin", "points3D.bin"]) {
    await rename(ctx.path(`dataset/sparse/${name}`), ctx.path(`dataset/sparse/0/${name}`));
  }
  await writeFile(ctx.path("dataset/holdout.txt"), framesKeptOut(frames).join("\n") + "\n");
  await mkdir(ctx.path("trainer-output"), { recursive: true });
  await mkdir(ctx.path("renders"), { recursive: true });
  const args = expandPlaceholders(splitCommandLine(template), {
    dataset: ctx.path("dataset"),
    images: ctx.path("dataset/images"),
    sparse: ctx.path("dataset/sparse/0"),
    output: ctx.path("trainer-output"),
    holdout: ctx.path("dataset/holdout.txt"),
    renders: ctx.path("renders"),
    iterations: String(ctx.config.SCAN_TRAINER_ITERATIONS),
    threads: String(ctx.config.SCAN_THREADS),
  });
  await ctx.tool({
    command: args[0],
    args: args.slice(1),
    cwd: ctx.path("trainer-output"),
    parser: (line) => {
      const value = parseTrainerProgress(line);
      return value === null ? null : 0.1 + 0.9 * value;
    },
    onProgress: (f) => ctx.progress(f),
    timeoutMs: ctx.config.SCAN_TRAINER_TIMEOUT_SECONDS * 1000,
  });
  const ply = await newestPly(ctx.path("trainer-output"));
  if (!ply) throw new Error("the trainer finished without writing a .ply");
  return ply;
}

/** The dataset training reads: the dense stage's undistorted images when there are some, else our own undistortion of the frames. */
async function trainingDataset(ctx: StageContext): Promise<{ images: string; sparse: string; init: string; roi: string | null }> {
  const dense = ctx.results.dense as { skipped?: string | null } | undefined;
  if (dense && !dense.skipped && existsSync(ctx.path("dense/fused.ply"))) {
    return {
      images: ctx.path("dense/images"),
      sparse: ctx.path("dense/sparse"),
      // All fused points (the crop applies to the trained result), so the held-out views are scored on the whole picture.
      init: ctx.path("dense/fused.ply"),
      roi: existsSync(ctx.path("dense/roi.json")) ? ctx.path("dense/roi.json") : null,
    };
  }
  await rm(ctx.path("train-data"), { recursive: true, force: true });
  await ctx.tool({
    command: ctx.config.COLMAP_BIN,
    args: ["image_undistorter", "--image_path", ctx.path("images"), "--input_path", ctx.path("sparse"), "--output_path", ctx.path("train-data"), "--output_type", "COLMAP", "--max_image_size", "640"],
    env: { QT_QPA_PLATFORM: "offscreen" },
  });
  const points = parsePoints(await readFile(ctx.path("sparse-txt/points3D.txt"), "utf8"));
  await writeFile(ctx.path("train-data/points.ply"), encodeSplatPly(previewSplatsFromPoints(points)));
  return { images: ctx.path("train-data/images"), sparse: ctx.path("train-data/sparse"), init: ctx.path("train-data/points.ply"), roi: null };
}

/**
 * Our CPU trainer (native/train, issue 15) within SCAN_TRAIN_MINUTES. It checkpoints every
 * SCAN_TRAIN_CHECKPOINT_SECONDS; each checkpoint is mirrored to storage at once, so a worker that dies
 * mid-training is followed by one that resumes from it (here or on another machine).
 */
async function trainOnCpu(ctx: StageContext): Promise<SplatResult> {
  const frames = ctx.results.frames as FramesResult;
  const data = await trainingDataset(ctx);
  await mkdir(ctx.path("train"), { recursive: true });
  // The test views are never read; the validation views are scored as the training's own log, never trained on.
  await writeFile(ctx.path("train/holdout.txt"), frames.holdout.join("\n") + "\n");
  await writeFile(ctx.path("train/validation.txt"), (frames.validation ?? []).join("\n") + "\n");
  const resume = await ctx.checkpoint.restore(CHECKPOINT);
  let mirrored: Promise<void> = Promise.resolve();
  const config = ctx.config;
  await ctx.tool({
    command: ctx.native("sr-train"),
    args: [
      "--images", data.images,
      "--sparse", data.sparse,
      "--init", data.init,
      "--holdout", ctx.path("train/holdout.txt"),
      "--output", ctx.path("splat/model.ply"),
      "--validation", ctx.path("train/validation.txt"),
      "--metrics", ctx.path("train/metrics.json"),
      "--checkpoint", ctx.path(CHECKPOINT),
      "--checkpoint-seconds", String(config.SCAN_TRAIN_CHECKPOINT_SECONDS),
      "--resume", resume ? "1" : "0",
      "--minutes", String(config.SCAN_TRAIN_MINUTES),
      "--max-iterations", String(config.SCAN_TRAIN_MAX_ITERATIONS),
      "--train-long-side", String(config.SCAN_TRAIN_LONG_SIDE),
      "--sh-degree", String(config.SCAN_TRAIN_SH_DEGREE),
      "--ssim-weight", String(config.SCAN_TRAIN_SSIM_WEIGHT),
      "--opacity-reset-every", String(config.SCAN_TRAIN_OPACITY_RESET_EVERY),
      "--threads", String(config.SCAN_THREADS),
      // What the viewer shows behind the model: whatever differs from it in the photos must be splats.
      "--background", DEFAULT_BACKGROUND.replace("#", ""),
      "--sky-splats", String(SKY_SPLATS),
      ...(data.roi ? ["--roi", data.roi] : []),
    ],
    parser: parseNativeProgress,
    onProgress: (f) => ctx.progress(f),
    onLine: (line) => {
      if (line.startsWith("checkpoint ")) mirrored = mirrored.then(() => ctx.checkpoint.save(CHECKPOINT)).catch(() => undefined);
    },
  });
  await mirrored;
  const metrics = trainMetricsSchema.parse(JSON.parse(await readFile(ctx.path("train/metrics.json"), "utf8")));
  const { count } = validateSplatPly(await readFile(ctx.path("splat/model.ply")));
  return {
    splats: count,
    trained: true,
    trainer: CPU_TRAINER,
    iterations: metrics.iterations,
    minutes: Math.round((metrics.seconds / 60) * 100) / 100,
    stopped: metrics.stopped,
    resumedFrom: metrics.resumedFrom,
    failure: null,
    log: { validationPsnr: metrics.validationPsnr >= 0 ? Math.round(metrics.validationPsnr * 100) / 100 : null, trainViews: metrics.trainViews },
  };
}

const trainMetricsSchema = z.object({
  iterations: z.number().int().nonnegative(),
  stopped: z.enum(TRAINING_STOPS),
  resumedFrom: z.number().int().nonnegative(),
  seconds: z.number().nonnegative(),
  validationPsnr: z.number(),
  trainViews: z.array(z.object({ name: z.string(), psnr: z.number() })),
});

/** The splat without training: one flat gaussian per dense point (issue 14), else one per sparse point. */
async function untrainedSplat(ctx: StageContext, failure: string | null): Promise<SplatResult> {
  const dense = ctx.results.dense as { skipped?: string | null } | undefined;
  let splats;
  if (dense && !dense.skipped && existsSync(ctx.path("dense/points.ply"))) {
    const points = readDensePly(new Uint8Array(await readFile(ctx.path("dense/points.ply"))));
    splats = denseSplatsFromPoints(points.positions, points.normals, points.colors);
  } else {
    splats = previewSplatsFromPoints(parsePoints(await readFile(ctx.path("sparse-txt/points3D.txt"), "utf8")));
  }
  await writeFile(ctx.path("splat/model.ply"), encodeSplatPly(splats));
  return { splats: splats.count, trained: false, trainer: null, failure };
}

export const splatStage: StageDefinition<SplatResult> = {
  name: "splat",
  // 3: the CPU trainer trains coarse-to-fine (half resolution for the first quarter of the budget).
  // 4: it resets opacities while densifying (SCAN_TRAIN_OPACITY_RESET_EVERY).
  // 5: test views unread, validation views kept out; trained on the viewer's background with sky splats (issue 38).
  // 6: each camera's near plane from the depths of the points it measured (a facade walk's close views were clipped);
  //    gaussians centred beyond 1.3× the field of view not drawn (a sky splat beside a camera fogged its view).
  // 7: gaussians drawn inside 3σ and binned to the tiles their ellipse reaches; training stops on the validation
  //    views' plateau (issue 34).
  // 8: only gaussians well inside a camera's near plane, unlike its photo there, are removed after training (the
  //    ground and walls round a courtyard's cameras were removed too).
  version: 8,
  outputs: ["splat"],
  params: (ctx) => {
    const gpu = ctx.config.SCAN_TRAINER_COMMAND ?? null;
    return {
      trainer: gpu,
      iterations: gpu ? ctx.config.SCAN_TRAINER_ITERATIONS : ctx.config.SCAN_TRAIN_MAX_ITERATIONS,
      cpu: gpu
        ? null
        : {
            minutes: ctx.config.SCAN_TRAIN_MINUTES,
            longSide: ctx.config.SCAN_TRAIN_LONG_SIDE,
            sh: ctx.config.SCAN_TRAIN_SH_DEGREE,
            ssim: ctx.config.SCAN_TRAIN_SSIM_WEIGHT,
            opacityReset: ctx.config.SCAN_TRAIN_OPACITY_RESET_EVERY,
            background: DEFAULT_BACKGROUND,
            sky: SKY_SPLATS,
          },
    };
  },
  async run(ctx) {
    await mkdir(ctx.path("splat"), { recursive: true });
    await rm(ctx.path("splat/model.ply"), { force: true });
    const template = ctx.config.SCAN_TRAINER_COMMAND;
    if (template) {
      const ply = await trainSplat(ctx, template);
      const { count } = validateSplatPly(await readFile(ply));
      await copyFile(ply, ctx.path("splat/model.ply"));
      for (const dir of ["dataset", "trainer-output", "renders"]) await rm(ctx.path(dir), { recursive: true, force: true });
      return { splats: count, trained: true, trainer: trainerName(template) };
    }
    if (ctx.config.SCAN_TRAIN_MINUTES === 0) {
      const result = await untrainedSplat(ctx, null);
      ctx.progress(1);
      return result;
    }
    try {
      return await trainOnCpu(ctx);
    } catch (error) {
      // A cancelled scan stops here; a trainer that failed leaves the untrained splat, labelled so.
      if (error instanceof ToolError && error.reason === "aborted") throw error;
      if (ctx.signal.aborted) throw error;
      logger.warn("training failed; publishing the untrained splat", { error, jobId: ctx.job.id });
      return untrainedSplat(ctx, "Training stopped with an error on this worker.");
    } finally {
      await rm(ctx.path("train-data"), { recursive: true, force: true });
    }
  },
};
