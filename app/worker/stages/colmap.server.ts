import { existsSync } from "node:fs";
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { groupCameras, type FrameCamera } from "../camera-groups";
import { fitLongSide, MAX_LONG_SIDE } from "../frame-selection";
import { parseModel, meanReprojectionError, uprightTransform, type ColmapModel } from "../colmap-model";
import { matchPairs, pairsByOverlap } from "../match-pairs";
import { readVerifiedPairs } from "../verified-pairs";
import { evaluateQualityGate, type GateOutcome } from "../quality-gate";
import { ToolError } from "~/tools/run-tool.server";
import type { StageContext, StageDefinition } from "../stage";
import { mappingProgressParser, parseFeatureProgress, parseMatchingProgress, withinRange } from "../tool-progress";
import { readPhoto } from "../upright-photo.server";
import type { FramesResult, IngestResult } from "./input.server";

/**
 * COLMAP 3.8 on the CPU (Debian's build has no CUDA): features → matching → mapping. SIFT's settings per kind of input:
 * - 4096 features per photo (COLMAP's default is 8192): CPU matching compares every feature of one image with
 *   every one of the other, and on 20 real fox photos 4096 matched in 46 s against 84 s, still every camera placed
 *   at 0.82 px (0.77 px with 8192; issue 34).
 * - A video's frames are 0.6 s apart and each is matched with ~13 others (3,814 pairs for the 291 frames of a 180 s
 *   fox video): 2048 features each matched them in 443 s against 698 s with 4096, every frame placed (issue 34 item 4).
 * - A video whose frames are at the full working size (long side 1600: any 1080p or larger video) is searched from
 *   the frame's own size up (first octave 0), not from a copy upsampled twice (COLMAP's -1), whose small-scale
 *   features the cap mostly drops at that size: on the 50 fox photos as a sequence at 2048 features extraction took
 *   20 s against 77 s; mapped, 50/50 placed with 9,574 points at 1.04 px against 9,640 at 1.02 px. Smaller frames
 *   need that octave (a 960×540 render of a smooth model placed 0 of 36 frames without it) and keep -1, as photos do.
 */
export function siftOptions(kind: "video" | "image", frameLongSide: number): { maxFeatures: number; firstOctave: number } {
  if (kind === "image") return { maxFeatures: 4096, firstOctave: -1 };
  return { maxFeatures: 2048, firstOctave: frameLongSide >= MAX_LONG_SIDE ? 0 : -1 };
}

/** The long side of a scan's frames: a video's after the frame stage scales it (photos: not needed, 0). */
function frameLongSide(ctx: StageContext): number {
  const video = (ctx.results.ingest as IngestResult | undefined)?.video;
  if (!video) return 0;
  const { width, height } = fitLongSide(video.width, video.height);
  return Math.max(width, height);
}
/** Up to this many photos every pair is matched at full detail; above, the pairs a pre-pass finds (pairsByOverlap). */
export const EXHAUSTIVE_LIMIT = 16;
/** With SCAN_PHOTO_MATCHING=exhaustive, every pair up to this many photos; above, neighbours in capture order plus keyframes. */
export const EXHAUSTIVE_SETTING_LIMIT = 80;
/** Up to this many photos the pre-pass tries every pair; above, neighbours in capture order plus keyframes (matchPairs). */
export const PREPASS_EXHAUSTIVE_LIMIT = 120;
/** What COLMAP 3.8's mapper prints when it exits 1 without a model. */
const MAPPER_FOUND_NOTHING = /failed to create sparse model|No images with matches found|No good initial image pair found/;

export interface FeaturesResult {
  images: number;
  singleCamera: boolean;
  /** Cameras in the database: 1 for a video; for photos, one per group of one size, camera model and focal length. */
  cameraGroups: number;
}

export interface MatchingResult {
  mode: "sequential" | "exhaustive" | "pairs" | "overlap";
  /** Pairs matched at full detail from a list (null: COLMAP's sequential or exhaustive matcher chose them). */
  pairs: number | null;
  /** The pre-pass ("overlap"): pairs it tried, and those it verified. */
  prepass: { candidates: number; verified: number } | null;
}

export interface MappingResult {
  registered: number;
  total: number;
  meanReprojectionError: number;
  points: number;
  models: number;
  gate: GateOutcome;
  /** The upright transform applied to the model (4×4, row-major). */
  transform: number[] | null;
}

/**
 * Removes a COLMAP database with its SQLite side files: a write-ahead log left by a killed tool would
 * otherwise be replayed into the next database of that name.
 */
export async function removeDatabase(file: string) {
  for (const suffix of ["", "-wal", "-shm", "-journal"]) await rm(`${file}${suffix}`, { force: true });
}

function colmap(ctx: StageContext, args: string[], parser?: (line: string) => number | null) {
  return ctx.tool({ command: ctx.config.COLMAP_BIN, args, parser, onProgress: (f) => ctx.progress(f) });
}

export const featuresStage: StageDefinition<FeaturesResult> = {
  name: "features",
  // 2: a camera per group of photos of one size, camera model and focal length (groupCameras), not one for
  // all photos of one size or one per photo (issue 38).
  version: 2,
  outputs: ["features.db"],
  params: (ctx) => ({ maxImageSize: MAX_LONG_SIDE, ...siftOptions(ctx.job.inputKind, frameLongSide(ctx)), kind: ctx.job.inputKind }),
  async run(ctx) {
    const frames = ctx.results.frames as FramesResult;
    await removeDatabase(ctx.path("features.db"));
    // A video is one camera. Photos: one camera per group, each group extracted by a run of its own that
    // adds one camera to the database (ImageReader.single_camera with an image list).
    // null: every frame, without a list.
    let groups: Array<string[] | null> = [null];
    if (ctx.job.inputKind === "image") {
      const cameras: FrameCamera[] = [];
      for (const frame of frames.frames) {
        // The frames stage writes only frames sharp reads (JPEG, PNG, TIFF), upright.
        const photo = await readPhoto(await readFile(ctx.path(`images/${frame}`)));
        if (!photo) throw new Error(`the frame ${frame} could not be read`);
        const { make, model, focalLength, focalLengthIn35mmFilm } = photo.exif;
        cameras.push({ frame, width: photo.width, height: photo.height, make, model, focalLength, focalLengthIn35mmFilm });
      }
      groups = groupCameras(cameras).map((group) => group.frames);
    }
    const total = frames.frames.length;
    const sift = siftOptions(ctx.job.inputKind, frameLongSide(ctx));
    let done = 0;
    for (const [i, group] of groups.entries()) {
      const list = ctx.path(`features-camera-${i + 1}.txt`);
      if (group) await writeFile(list, group.map((frame) => `${frame}\n`).join(""));
      const count = group?.length ?? total;
      const before = done;
      await colmap(
        ctx,
        [
          "feature_extractor",
          "--database_path", ctx.path("features.db"),
          "--image_path", ctx.path("images"),
          ...(group ? ["--image_list_path", list] : []),
          "--ImageReader.camera_model", "SIMPLE_RADIAL",
          "--ImageReader.single_camera", "1",
          "--SiftExtraction.use_gpu", "0",
          "--SiftExtraction.num_threads", String(ctx.config.SCAN_THREADS),
          "--SiftExtraction.max_image_size", String(MAX_LONG_SIDE),
          "--SiftExtraction.max_num_features", String(sift.maxFeatures),
          "--SiftExtraction.first_octave", String(sift.firstOctave),
        ],
        withinRange(parseFeatureProgress, before / total, (before + count) / total),
      );
      if (group) await rm(list, { force: true });
      done += count;
    }
    return { images: total, singleCamera: groups.length === 1, cameraGroups: groups.length };
  },
};

export function matchingMode(kind: "video" | "image", images: number, photoMatching: "overlap" | "exhaustive"): MatchingResult["mode"] {
  if (kind === "video") return "sequential";
  if (images <= EXHAUSTIVE_LIMIT) return "exhaustive";
  if (photoMatching === "overlap") return "overlap";
  return images <= EXHAUSTIVE_SETTING_LIMIT ? "exhaustive" : "pairs";
}

/**
 * The pre-pass that picks a photo set's pairs: SIFT on copies of at most 640 px with 256 features each, matched
 * and verified by COLMAP (every pair up to PREPASS_EXHAUSTIVE_LIMIT photos, else neighbours and keyframes); at
 * most 200 RANSAC trials a pair, enough to rank pairs by inliers. Measured on 2 cores against exhaustive matching
 * at full detail (4096 features, 1600 px), issue 34 item 3: the 50 fox photos 3 s + 16 s, then 240 pairs at full
 * detail in 48 s (67 s in all against 252 s for 1,225 pairs), 50/50 placed at 0.96 px (0.99), camera centres
 * 0.0143 from instant-ngp's (0.0101); Herz-Jesu-P25 2.6 s + 4.3 s + 24.5 s (68.5 s), 25/25 at 0.74 px (0.75),
 * 0.0214 m from the ground truth (0.0210).
 */
export const PREPASS = { maxImageSize: 640, maxFeatures: 256, maxTrials: 200, partners: 8 } as const;

function matcherArgs(ctx: StageContext, database: string): string[] {
  return ["--database_path", database, "--SiftMatching.use_gpu", "0", "--SiftMatching.num_threads", String(ctx.config.SCAN_THREADS)];
}

/** Matches and verifies the listed pairs (COLMAP's matches_importer), with `args` for the matcher. */
async function matchListed(ctx: StageContext, args: string[], pairs: Array<[string, string]>, progress: (line: string) => number | null) {
  const list = ctx.path("pairs.txt");
  await writeFile(list, pairs.map(([a, b]) => `${a} ${b}`).join("\n") + "\n");
  await colmap(ctx, ["matches_importer", ...args, "--match_list_path", list, "--match_type", "pairs"], progress);
  await rm(list, { force: true });
}

async function prepassPairs(ctx: StageContext, frames: string[]): Promise<{ pairs: Array<[string, string]>; candidates: number; verified: number }> {
  const database = ctx.path("prepass.db");
  await removeDatabase(database);
  await colmap(
    ctx,
    [
      "feature_extractor",
      "--database_path", database,
      "--image_path", ctx.path("images"),
      "--ImageReader.camera_model", "SIMPLE_RADIAL",
      "--SiftExtraction.use_gpu", "0",
      "--SiftExtraction.num_threads", String(ctx.config.SCAN_THREADS),
      "--SiftExtraction.max_image_size", String(PREPASS.maxImageSize),
      "--SiftExtraction.max_num_features", String(PREPASS.maxFeatures),
      "--SiftExtraction.first_octave", "0",
    ],
    withinRange(parseFeatureProgress, 0, 0.05),
  );
  const quick = [...matcherArgs(ctx, database), "--SiftMatching.max_num_trials", String(PREPASS.maxTrials)];
  let candidates = (frames.length * (frames.length - 1)) / 2;
  if (frames.length <= PREPASS_EXHAUSTIVE_LIMIT) {
    await colmap(ctx, ["exhaustive_matcher", ...quick], withinRange(parseMatchingProgress, 0.05, 0.3));
  } else {
    const list = matchPairs(frames);
    candidates = list.length;
    await matchListed(ctx, quick, list, withinRange(parseMatchingProgress, 0.05, 0.3));
  }
  const verified = readVerifiedPairs(database);
  await removeDatabase(database);
  return { pairs: pairsByOverlap(frames, verified, { partners: PREPASS.partners }), candidates, verified: verified.length };
}

export const matchingStage: StageDefinition<MatchingResult> = {
  name: "matching",
  // 2: photo sets over EXHAUSTIVE_LIMIT match the pairs a pre-pass finds (pairsByOverlap), unless SCAN_PHOTO_MATCHING says otherwise.
  version: 2,
  outputs: ["matches.db"],
  params: (ctx) => {
    const mode = matchingMode(ctx.job.inputKind, (ctx.results.frames as FramesResult).frames.length, ctx.config.SCAN_PHOTO_MATCHING);
    return { mode, ...(mode === "overlap" ? { prepass: PREPASS } : {}) };
  },
  async run(ctx) {
    const frames = ctx.results.frames as FramesResult;
    const mode = matchingMode(ctx.job.inputKind, frames.frames.length, ctx.config.SCAN_PHOTO_MATCHING);
    await removeDatabase(ctx.path("matches.db"));
    await copyFile(ctx.path("features.db"), ctx.path("matches.db"));
    const common = matcherArgs(ctx, ctx.path("matches.db"));
    if (mode === "sequential") {
      await colmap(
        ctx,
        ["sequential_matcher", ...common, "--SequentialMatching.overlap", "10", "--SequentialMatching.quadratic_overlap", "1", "--SequentialMatching.loop_detection", "0"],
        parseMatchingProgress,
      );
      return { mode, pairs: null, prepass: null };
    }
    if (mode === "exhaustive") {
      // Blocks of about a quarter of the set, so progress moves in 16 steps.
      const block = Math.max(10, Math.ceil(frames.frames.length / 4));
      await colmap(ctx, ["exhaustive_matcher", ...common, "--ExhaustiveMatching.block_size", String(block)], parseMatchingProgress);
      return { mode, pairs: null, prepass: null };
    }
    if (mode === "pairs") {
      const list = matchPairs(frames.frames);
      await matchListed(ctx, common, list, parseMatchingProgress);
      return { mode, pairs: list.length, prepass: null };
    }
    const { pairs, candidates, verified } = await prepassPairs(ctx, frames.frames);
    await matchListed(ctx, common, pairs, withinRange(parseMatchingProgress, 0.3, 1));
    return { mode, pairs: pairs.length, prepass: { candidates, verified } };
  },
};

async function readTextModel(ctx: StageContext, dir: string): Promise<ColmapModel> {
  const read = (name: string) => readFile(ctx.path(`${dir}/${name}`), "utf8");
  return parseModel({ cameras: await read("cameras.txt"), images: await read("images.txt"), points3D: await read("points3D.txt") });
}

async function toText(ctx: StageContext, input: string, output: string) {
  await mkdir(ctx.path(output), { recursive: true });
  await colmap(ctx, ["model_converter", "--input_path", ctx.path(input), "--output_path", ctx.path(output), "--output_type", "TXT"]);
}

/**
 * The mapper's settings beyond COLMAP's defaults. A video's frames are many, close together and in order:
 * COLMAP's own video preset (its automatic reconstructor's ModifyForVideoData) halves the initial pair's
 * minimum triangulation angle and runs a global bundle adjustment each time the model grows by 40 % rather
 * than 10 % (images and points) — local adjustments still run after every image and the last global one
 * at the end. On the 180 s fox video (291 frames, issue 34 item 4) the defaults had not finished mapping after
 * 1,359 s (4096 features); this preset with 2048 features mapped it in 971 s, 291/291 placed at 1.04 px.
 */
export function mapperOptions(kind: "video" | "image"): string[] {
  if (kind !== "video") return [];
  return ["--Mapper.init_min_tri_angle", "8", "--Mapper.ba_global_images_ratio", "1.4", "--Mapper.ba_global_points_ratio", "1.4"];
}

/**
 * The frames the mapper places first: for a video every other frame in capture order (the rest are registered
 * into that model afterwards, registerRest); for photos all of them (null). The incremental mapper's cost grows
 * faster than its images — a local bundle adjustment after every image, global ones as the model grows — while
 * a frame 0.6 s from two placed neighbours is placed by one pose estimate and a single adjustment at the end.
 * Every held-out and validation frame (every 4th) is a keyframe.
 */
export function mappingKeyframes(kind: "video" | "image", frames: string[]): string[] | null {
  return kind === "video" ? frames.filter((_, i) => i % 2 === 0) : null;
}

/**
 * The frames left out of the first mapping joined to its model: COLMAP's image_registrator places each by its
 * matches to the model's points; point_triangulator then triangulates the matches of every frame with the poses
 * held (the registrator only extends tracks the keyframes started: on the 50 fox photos as a sequence it left the
 * keyframes' 3,995 points, the triangulator made 9,751); one global bundle adjustment refines all poses, points
 * and the camera together, and observations that still reproject more than the mapper's own 4 px are filtered.
 * On those 50 frames: 14 s for 9,746 points at 1.06 px, against the mapper's 22 s on all of them (9,611, 1.02 px).
 */
async function registerRest(ctx: StageContext, model: string, output: string, progress: (line: string) => number | null) {
  await mkdir(ctx.path(output), { recursive: true });
  const threads = ["--Mapper.num_threads", String(ctx.config.SCAN_THREADS)];
  await colmap(ctx, ["image_registrator", "--database_path", ctx.path("matches.db"), "--input_path", ctx.path(model), "--output_path", ctx.path(output), ...threads], progress);
  await colmap(ctx, ["point_triangulator", "--database_path", ctx.path("matches.db"), "--image_path", ctx.path("images"), "--input_path", ctx.path(output), "--output_path", ctx.path(output), ...threads]);
  await colmap(ctx, ["bundle_adjuster", "--input_path", ctx.path(output), "--output_path", ctx.path(output)]);
  await colmap(ctx, ["point_filtering", "--input_path", ctx.path(output), "--output_path", ctx.path(output), "--max_reproj_error", "4"]);
}

/**
 * Mapping: COLMAP's incremental mapper (a video's keyframes first, then the rest registered into that model),
 * then the largest model is turned upright and centred (sparse/ in COLMAP's binary format for trainers,
 * sparse-txt/ for us), and the quality gate is read from it.
 */
export const mappingStage: StageDefinition<MappingResult> = {
  name: "mapping",
  // 2: a video's keyframes mapped first, the other frames registered into that model (mappingKeyframes).
  version: 2,
  outputs: ["sparse", "sparse-txt"],
  params: (ctx) => ({ mapper: mapperOptions(ctx.job.inputKind), keyframes: ctx.job.inputKind === "video" ? "every 2nd" : "all" }),
  async run(ctx) {
    const frames = ctx.results.frames as FramesResult;
    for (const dir of ["mapped", "mapped-txt", "registered", "sparse", "sparse-txt"]) await rm(ctx.path(dir), { recursive: true, force: true });
    await mkdir(ctx.path("mapped"), { recursive: true });
    const keyframes = mappingKeyframes(ctx.job.inputKind, frames.frames);
    if (keyframes) await writeFile(ctx.path("keyframes.txt"), keyframes.map((frame) => `${frame}\n`).join(""));
    const progress = mappingProgressParser(frames.frames.length);
    try {
      await colmap(
        ctx,
        [
          "mapper",
          "--database_path", ctx.path("matches.db"),
          "--image_path", ctx.path("images"),
          "--output_path", ctx.path("mapped"),
          ...(keyframes ? ["--image_list_path", ctx.path("keyframes.txt")] : []),
          "--Mapper.num_threads", String(ctx.config.SCAN_THREADS),
          ...mapperOptions(ctx.job.inputKind),
        ],
        progress,
      );
    } catch (error) {
      // COLMAP exits 1 when the images do not connect into any model: the quality gate explains that.
      if (!(error instanceof ToolError && error.reason === "exit" && MAPPER_FOUND_NOTHING.test(error.output))) throw error;
    }
    const models = (await readdir(ctx.path("mapped"))).filter((name) => existsSync(ctx.path(`mapped/${name}/images.bin`)));
    let best: { dir: string; model: ColmapModel } | null = null;
    for (const name of models) {
      await toText(ctx, `mapped/${name}`, `mapped-txt/${name}`);
      const model = await readTextModel(ctx, `mapped-txt/${name}`);
      if (!best || model.images.length > best.model.images.length) best = { dir: `mapped/${name}`, model };
    }
    if (best && keyframes) {
      await registerRest(ctx, best.dir, "registered", progress);
      await toText(ctx, "registered", "mapped-txt/registered");
      best = { dir: "registered", model: await readTextModel(ctx, "mapped-txt/registered") };
    }
    const figures = {
      inputKind: ctx.job.inputKind,
      registered: best?.model.images.length ?? 0,
      total: frames.frames.length,
      meanReprojectionError: best ? meanReprojectionError(best.model.points) : Number.POSITIVE_INFINITY,
      points: best?.model.points.count ?? 0,
    };
    const gate = evaluateQualityGate(figures);
    let transform: number[] | null = null;
    if (best && gate.passed) {
      transform = uprightTransform(best.model.images, best.model.points);
      const matrix = [0, 1, 2, 3].map((r) => transform!.slice(r * 4, r * 4 + 4).join(" ")).join("\n");
      await writeFile(ctx.path("upright.txt"), `${matrix}\n`);
      await mkdir(ctx.path("sparse"), { recursive: true });
      await colmap(ctx, ["model_transformer", "--input_path", ctx.path(best.dir), "--output_path", ctx.path("sparse"), "--transform_path", ctx.path("upright.txt")]);
      await toText(ctx, "sparse", "sparse-txt");
    }
    for (const dir of ["mapped-txt", "registered"]) await rm(ctx.path(dir), { recursive: true, force: true });
    return {
      ...figures,
      meanReprojectionError: Number.isFinite(figures.meanReprojectionError) ? Math.round(figures.meanReprojectionError * 1000) / 1000 : -1,
      models: models.length,
      gate,
      transform,
    };
  },
};
