import { existsSync } from "node:fs";
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { parsePoints } from "../colmap-model";
import { psnr, ssim } from "../image-metrics";
import { imageSize } from "../image-size";
import { z } from "zod";
import { logger } from "~/lib/logger.server";
import { expandPlaceholders, splitCommandLine, ToolError } from "../run-tool.server";
import { readDensePly } from "../dense-points";
import { denseSplatsFromPoints, encodeSplatPly, previewSplatsFromPoints, validateSplatPly } from "../splat-ply";
import type { StageContext, StageDefinition } from "../stage";
import { parseNativeProgress, parseTrainerProgress } from "../tool-progress";
import type { MappingResult } from "./colmap.server";
import type { FramesResult } from "./input.server";

export interface SplatResult {
  splats: number;
  /** True when a trainer made the splat; false for one built directly from the points. */
  trained: boolean;
  /** "scanroom-cpu" (native/train), a GPU trainer's program name, or null. */
  trainer: string | null;
  iterations?: number;
  minutes?: number;
  /** The iteration a resumed training started from (0: from the start). */
  resumedFrom?: number;
  /** Why training failed and the untrained splat was published instead. */
  failure?: string | null;
}

/** The name our CPU trainer is recorded under. */
export const CPU_TRAINER = "scanroom-cpu";
const CHECKPOINT = "train/checkpoint.bin";

export interface EvaluationResult {
  registeredRatio: number;
  registeredImages: number;
  totalImages: number;
  meanReprojectionError: number;
  points: number;
  splats: number;
  heldOutFrames: number;
  /** Only for a trained splat whose trainer rendered the held-out views. */
  psnr: number | null;
  ssim: number | null;
  evaluatedViews: number;
}

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
 * writes. Held-out frames are listed in {holdout}; a trainer that renders them into {renders}
 * (same file names) gets PSNR/SSIM in the evaluation.
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
  await writeFile(ctx.path("dataset/holdout.txt"), frames.holdout.join("\n") + "\n");
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
  await rm(ctx.path("splat/renders"), { recursive: true, force: true });
  await writeFile(ctx.path("train/holdout.txt"), frames.holdout.join("\n") + "\n");
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
      "--renders", ctx.path("splat/renders"),
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
    resumedFrom: metrics.resumedFrom,
    failure: null,
  };
}

const trainMetricsSchema = z.object({ iterations: z.number().int().nonnegative(), resumedFrom: z.number().int().nonnegative(), seconds: z.number().nonnegative() });

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
  await rm(ctx.path("splat/renders"), { recursive: true, force: true });
  return { splats: splats.count, trained: false, trainer: null, failure };
}

export const splatStage: StageDefinition<SplatResult> = {
  name: "splat",
  // 3: the CPU trainer trains coarse-to-fine (half resolution for the first quarter of the budget).
  // 4: it resets opacities while densifying (SCAN_TRAIN_OPACITY_RESET_EVERY).
  version: 4,
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
      // The renders of held-out views are the evaluation's input; keep them with the splat.
      await rm(ctx.path("splat/renders"), { recursive: true, force: true });
      if (existsSync(ctx.path("renders"))) await rename(ctx.path("renders"), ctx.path("splat/renders"));
      for (const dir of ["dataset", "trainer-output"]) await rm(ctx.path(dir), { recursive: true, force: true });
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

/** Decodes an image to 8-bit RGB at a given size with ffmpeg. */
async function decodeRgb(ctx: StageContext, file: string, width: number, height: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  await ctx.tool({
    command: ctx.config.FFMPEG_BIN,
    args: ["-hide_banner", "-loglevel", "error", "-i", file, "-vf", `scale=${width}:${height}`, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"],
    onStdout: (chunk) => chunks.push(chunk),
  });
  return new Uint8Array(Buffer.concat(chunks));
}


export const evaluationStage: StageDefinition<EvaluationResult> = {
  name: "evaluation",
  version: 1,
  outputs: [],
  params: () => ({ every: 8 }),
  async run(ctx) {
    const frames = ctx.results.frames as FramesResult;
    const mapping = ctx.results.mapping as MappingResult;
    const splat = ctx.results.splat as SplatResult;
    const scores: Array<{ psnr: number; ssim: number }> = [];
    if (splat.trained) {
      for (const [i, name] of frames.holdout.entries()) {
        const base = name.replace(/\.[^.]+$/, "");
        const render = [".png", ".jpg", ".jpeg"].map((ext) => ctx.path(`splat/renders/${base}${ext}`)).find(existsSync);
        if (!render) continue;
        const size = imageSize(new Uint8Array(await readFile(render)));
        if (!size) continue;
        const rendered = await decodeRgb(ctx, render, size.width, size.height);
        const truth = await decodeRgb(ctx, ctx.path(`images/${name}`), size.width, size.height);
        scores.push({ psnr: psnr(rendered, truth), ssim: ssim(rendered, truth, size.width, size.height) });
        ctx.progress((i + 1) / frames.holdout.length);
      }
    }
    const mean = (values: number[]) => (values.length ? Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 1000) / 1000 : null);
    return {
      registeredRatio: mapping.total ? Math.round((mapping.registered / mapping.total) * 1000) / 1000 : 0,
      registeredImages: mapping.registered,
      totalImages: mapping.total,
      meanReprojectionError: mapping.meanReprojectionError,
      points: mapping.points,
      splats: splat.splats,
      heldOutFrames: frames.holdout.length,
      psnr: mean(scores.map((s) => s.psnr).filter(Number.isFinite)),
      ssim: mean(scores.map((s) => s.ssim)),
      evaluatedViews: scores.length,
    };
  },
};
