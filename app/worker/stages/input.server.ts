import { createWriteStream, existsSync } from "node:fs";
import { copyFile, link, mkdir, open, readdir, readFile, rename, rm, statfs } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { MAX_IMAGES, MIN_IMAGES, parseImageUploadName } from "~/lib/upload-rules";
import { localStorageDriver, storage } from "~/storage/index.server";
import {
  fitLongSide,
  holdoutFrames,
  validationFrames,
  laplacianVariance,
  MAX_LONG_SIDE,
  MAX_VIDEO_SECONDS,
  selectExpression,
  selectFrames,
  SHARPNESS_FLOOR,
  targetFrameCount,
} from "../frame-selection";
import { imageSize } from "../image-size";
import { probeVideoStream } from "~/tools/ffprobe.server";
import { ToolError } from "~/tools/run-tool.server";
import { ScanFailure, type StageContext, type StageDefinition } from "../stage";
import { ffmpegFrameProgressParser } from "../tool-progress";
import { readPhoto, writeUprightPhoto } from "../upright-photo.server";

/** Ingest: the inputs are listed, checked against the limits, copied to the working folder. */
export interface IngestResult {
  inputs: Array<{ key: string; name: string; size: number }>;
  video: { seconds: number; width: number; height: number; fps: number; rotation: number } | null;
}

export interface FramesResult {
  /** File names in images/, in capture order. */
  frames: string[];
  /** The test split: every 8th frame, kept out of everything that fits the model; the owner's figures are measured on it. */
  holdout: string[];
  /**
   * The validation split: every 8th frame half-way between test frames, kept out of fitting too; defaults are tuned
   * on it (docs/scan-worker.md, "Three splits"). Absent from results recorded before it existed: read it as none.
   */
  validation?: string[];
  sameSize: boolean;
  /** Video only: how frames were chosen; `sourceFrames` are the kept frames' numbers in the video (0-based), in order. */
  selection: { decoded: number; windows: number; candidates: number; kept: number; medianSharpness: number; sourceFrames?: number[] } | null;
}

/** Image formats COLMAP reads as they are; others are converted to PNG first. */
const COLMAP_READS = /\.(jpe?g|png|tiff?|bmp)$/i;
/** Long side of the grey frames decoded to measure sharpness. */
const ANALYSIS_LONG_SIDE = 480;

/** Frames that nothing may be fitted to (stereo, texture, training): the test and the validation splits. */
export function framesKeptOut(frames: FramesResult): string[] {
  return [...frames.holdout, ...(frames.validation ?? [])];
}

async function listInputs(ctx: StageContext) {
  if (ctx.job.inputKind === "video") {
    const stat = await storage().stat(ctx.job.inputPath);
    if (!stat) throw new ScanFailure("The uploaded video is missing; upload it again.", null);
    return [{ key: ctx.job.inputPath, name: "video", size: stat.size, etag: stat.etag }];
  }
  const folder = ctx.job.inputPath.endsWith("/") ? ctx.job.inputPath : `${ctx.job.inputPath}/`;
  const objects = await storage().list(folder);
  const inputs = [];
  for (const object of objects) {
    const name = object.key.slice(folder.length);
    if (!parseImageUploadName(name)) continue;
    const stat = await storage().stat(object.key);
    inputs.push({ key: object.key, name, size: object.size, etag: stat?.etag ?? "" });
  }
  return inputs.sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** A stored object copied into the working folder (a hard link when storage is this disk). */
async function fetchInput(key: string, target: string) {
  await mkdir(path.dirname(target), { recursive: true });
  await rm(target, { force: true });
  const local = localStorageDriver();
  if (local) {
    try {
      await link(local.pathOf(key), target);
      return;
    } catch {
      await copyFile(local.pathOf(key), target);
      return;
    }
  }
  await pipeline(await storage().createReadStream(key), createWriteStream(target));
}

export const ingestStage: StageDefinition<IngestResult> = {
  name: "ingest",
  version: 1,
  // Nothing to keep: the inputs stay in storage, and the frames stage fetches what it needs.
  outputs: [],
  async params(ctx) {
    const inputs = await listInputs(ctx);
    return { kind: ctx.job.inputKind, duration: ctx.job.duration, inputs: inputs.map(({ key, size, etag }) => ({ key, size, etag })) };
  },
  async run(ctx) {
    const inputs = await listInputs(ctx);
    if (ctx.job.inputKind === "image" && (inputs.length < MIN_IMAGES || inputs.length > MAX_IMAGES)) {
      throw new ScanFailure(`The image set has ${inputs.length} images; a scan needs ${MIN_IMAGES} to ${MAX_IMAGES}.`, null);
    }
    // Disk space: the inputs, frames, feature database and exports take a few times the input size.
    const bytes = inputs.reduce((sum, input) => sum + input.size, 0);
    await mkdir(ctx.dir, { recursive: true });
    const disk = await statfs(ctx.dir);
    const free = disk.bavail * disk.bsize;
    const needed = 6 * bytes + ctx.config.SCAN_MIN_FREE_MB * 1024 * 1024;
    if (free < needed) {
      throw new Error(`not enough disk space for this scan: ${Math.round(free / 2 ** 20)} MB free, ${Math.round(needed / 2 ** 20)} MB needed`);
    }
    let video: IngestResult["video"] = null;
    if (ctx.job.inputKind === "video") {
      await fetchInput(inputs[0].key, ctx.path("input/video"));
      const stream = await probeVideoStream({ bin: ctx.config.FFPROBE_BIN, input: ctx.path("input/video") });
      if (!stream) throw new ScanFailure("The video has no readable picture. Upload it again, or record it again as MP4 or MOV.", null);
      const { rotation } = stream;
      const quarter = Math.abs(rotation) % 180 === 90;
      video = {
        seconds: Math.min(stream.duration, MAX_VIDEO_SECONDS, ctx.job.duration ?? MAX_VIDEO_SECONDS),
        // Display size: ffmpeg turns the picture upright while decoding.
        width: quarter ? stream.height : stream.width,
        height: quarter ? stream.width : stream.height,
        fps: stream.fps || 30,
        rotation,
      };
    }
    return { inputs: inputs.map(({ key, name, size }) => ({ key, name, size })), video };
  },
};

/**
 * Photos: those COLMAP reads, upright (EXIF Orientation 1 or none) and within the working size are used as
 * they are (EXIF kept, COLMAP reads the focal length from it). Others are written as JPEG by sharp
 * (writeUprightPhoto): turned upright, since COLMAP 3.8 ignores EXIF Orientation and a phone stores its
 * portrait shots as landscape pixels with Orientation 6 or 8 (issue 38); scaled to a long side of
 * MAX_LONG_SIDE for structure from motion, stereo and texturing (22 photos of 6 MP spent 260 s in
 * matching alone, issue 14); with the EXIF COLMAP reads for the focal length. Files sharp cannot decode
 * (BMP) are converted by ffmpeg (they carry no EXIF). The originals stay in storage for reprocessing.
 */
async function photoFrames(ctx: StageContext, ingest: IngestResult): Promise<string[]> {
  const frames: string[] = [];
  await mkdir(ctx.path("input"), { recursive: true });
  for (const [i, input] of ingest.inputs.entries()) {
    if (ctx.signal.aborted) throw new ToolError("cancelled", "aborted", null, "");
    frames.push(await photoFrame(ctx, input));
    ctx.progress((i + 1) / ingest.inputs.length);
  }
  return frames;
}

/** One photo into images/: its frame's name there. */
async function photoFrame(ctx: StageContext, input: IngestResult["inputs"][number]): Promise<string> {
  const unreadable = () => new ScanFailure(`${input.name} could not be read. Export the photos as JPEG and upload them again.`, null);
  const source = ctx.path(`input/${input.name}`);
  await fetchInput(input.key, source);
  const bytes = await readFile(source);
  const photo = await readPhoto(bytes);
  if (!photo) {
    const name = `${input.name.replace(/\.[^.]+$/, "")}.png`;
    try {
      const fit = `scale='min(${MAX_LONG_SIDE},iw)':'min(${MAX_LONG_SIDE},ih)':force_original_aspect_ratio=decrease:flags=area`;
      await ctx.tool({ command: ctx.config.FFMPEG_BIN, args: ["-hide_banner", "-loglevel", "error", "-y", "-i", source, "-frames:v", "1", "-vf", fit, ctx.path(`images/${name}`)] });
    } catch (error) {
      // Cancelled or out of time is not the photo's fault.
      if (error instanceof ToolError && error.reason !== "exit") throw error;
      throw unreadable();
    }
    return name;
  }
  if (COLMAP_READS.test(input.name) && photo.exif.orientation === 1 && Math.max(photo.width, photo.height) <= MAX_LONG_SIDE) {
    await rename(source, ctx.path(`images/${input.name}`));
    ctx.sources.set(`images/${input.name}`, input.key);
    return input.name;
  }
  const name = `${input.name.replace(/\.[^.]+$/, "")}.jpg`;
  try {
    await writeUprightPhoto({ bytes, photo, target: ctx.path(`images/${name}`), maxLongSide: MAX_LONG_SIDE });
  } catch {
    throw unreadable();
  }
  return name;
}

/**
 * Video: pass 1 decodes small grey frames and scores each by the variance of its Laplacian; the
 * sharpest of each equal time window is kept unless it is below 0.35× the median; pass 2 writes the
 * kept frames at full size (long side ≤ 1600 px). Only the first 180 s are read.
 */
async function videoFrames(ctx: StageContext, ingest: IngestResult): Promise<{ frames: string[]; selection: NonNullable<FramesResult["selection"]> }> {
  const video = ingest.video!;
  const input = ctx.path("input/video");
  if (!existsSync(input)) await fetchInput(ingest.inputs[0].key, input);
  const analysis = fitLongSide(video.width, video.height, ANALYSIS_LONG_SIDE);
  const frameBytes = analysis.width * analysis.height;
  const expected = Math.max(1, Math.round(video.seconds * video.fps));
  const sharpness: number[] = [];
  let pending: Buffer = Buffer.alloc(0);
  await ctx.tool({
    command: ctx.config.FFMPEG_BIN,
    args: ["-hide_banner", "-loglevel", "error", "-t", String(video.seconds), "-i", input, "-an", "-vf", `scale=${analysis.width}:${analysis.height},format=gray`, "-f", "rawvideo", "-pix_fmt", "gray", "pipe:1"],
    onStdout: (chunk) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      let offset = 0;
      while (pending.length - offset >= frameBytes) {
        sharpness.push(laplacianVariance(pending.subarray(offset, offset + frameBytes), analysis.width, analysis.height));
        offset += frameBytes;
      }
      pending = pending.subarray(offset);
      ctx.progress(Math.min(0.7, (0.7 * sharpness.length) / expected));
    },
  });
  if (sharpness.length === 0) throw new ScanFailure("No frames could be decoded from the video. Record it again as MP4 or MOV.", null);
  const windows = targetFrameCount({ seconds: video.seconds, frames: sharpness.length });
  const choice = selectFrames(sharpness, windows, SHARPNESS_FLOOR);
  const full = fitLongSide(video.width, video.height, MAX_LONG_SIDE);
  const select = selectExpression(choice.kept);
  await mkdir(ctx.path("images"), { recursive: true });
  await ctx.tool({
    command: ctx.config.FFMPEG_BIN,
    args: [
      "-hide_banner", "-nostats", "-loglevel", "error", "-progress", "pipe:1",
      "-t", String(video.seconds), "-i", input, "-an",
      "-vf", `select='${select}',scale=${full.width}:${full.height}`,
      "-fps_mode", "passthrough", "-q:v", "2", ctx.path("images/frame-%04d.jpg"),
    ],
    parser: (line) => {
      const value = ffmpegFrameProgressParser(choice.kept.length)(line);
      return value === null ? null : 0.7 + 0.3 * value;
    },
  });
  const frames = (await readdir(ctx.path("images"))).filter((f) => f.endsWith(".jpg")).sort();
  if (frames.length !== choice.kept.length) {
    throw new Error(`ffmpeg wrote ${frames.length} frames, ${choice.kept.length} were chosen`);
  }
  return {
    frames,
    selection: {
      decoded: sharpness.length,
      windows,
      candidates: choice.candidates.length,
      kept: choice.kept.length,
      medianSharpness: Math.round(choice.medianSharpness * 100) / 100,
      sourceFrames: choice.kept,
    },
  };
}

async function headOf(file: string) {
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.alloc(256 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export const framesStage: StageDefinition<FramesResult> = {
  name: "frames",
  // 3: a validation split beside the test split (validationFrames).
  // 4: photos turned upright by their EXIF Orientation, and scaled ones keep the EXIF focal length (issue 38).
  version: 4,
  outputs: ["images"],
  params: (ctx) => ({ kind: ctx.job.inputKind, maxLongSide: MAX_LONG_SIDE, floor: SHARPNESS_FLOOR }),
  async run(ctx) {
    const ingest = ctx.results.ingest as IngestResult;
    await rm(ctx.path("images"), { recursive: true, force: true });
    await mkdir(ctx.path("images"), { recursive: true });
    let frames: string[];
    let selection: FramesResult["selection"] = null;
    if (ctx.job.inputKind === "video") {
      ({ frames, selection } = await videoFrames(ctx, ingest));
    } else {
      frames = await photoFrames(ctx, ingest);
    }
    const sizes = await Promise.all(frames.map(async (f) => imageSize(await headOf(ctx.path(`images/${f}`)))));
    const first = sizes[0];
    const sameSize = sizes.every((s) => s && first && s.width === first.width && s.height === first.height);
    // The working copy of the input is no longer needed once frames exist.
    await rm(ctx.path("input"), { recursive: true, force: true });
    return { frames, holdout: holdoutFrames(frames), validation: validationFrames(frames), sameSize, selection };
  },
};
