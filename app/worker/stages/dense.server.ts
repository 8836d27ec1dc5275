import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { cameraCenter, parseImages, rotationMatrix } from "../colmap-model";
import { cropPoints, readDensePly, readVisibilityCounts, regionOfInterest, REGION_RULE, type RegionOfInterest } from "../dense-points";
import { encodeOrientedPointsPly } from "~/formats/splat-ply";
import type { StageDefinition } from "../stage";
import { parseNativeProgress } from "../tool-progress";
import { spread } from "../frame-selection";
import { framesKeptOut, type FramesResult } from "./input.server";

/**
 * Dense geometry (issue 14, DESIGN §6): COLMAP undistorts the frames to the working size, our sr-stereo
 * (native/stereo, decision 032) computes depth and normal maps by PatchMatch with geometric consistency, COLMAP's
 * stereo_fusion fuses them into coloured points with normals, and the points are cropped to the region the
 * cameras saw well (a box around the well-seen points, whatever the capture's shape: issue 38 item 5).
 * Held-out frames take no part (their evaluation stays honest).
 */
export interface DenseResult {
  /** Why there is no dense geometry (then later stages work from the sparse points). */
  skipped: string | null;
  images?: number;
  fusedPoints?: number;
  /** Points kept after cropping (dense/points.ply). */
  points?: number;
  roi?: RegionOfInterest | null;
  workingSize?: number;
  seconds?: Record<string, number>;
}

/** Long side of the undistorted images (training reads them too) and of the depth maps. */
export const WORKING_SIZE = 640;
const STEREO_SIZE = 320;
/**
 * Depth maps are made for at most this many views, evenly spread over the capture in order (the others are left
 * out as references and as sources). A 180 s video places ~290 frames 0.6 s apart; neighbours that close add
 * little depth another view has not measured, and each map costs ~1.4 s on 2 cores (issue 34 item 4).
 */
export const MAX_DEPTH_VIEWS = 100;

/**
 * The views that take no part in dense stereo: the held-out ones, and all but an even spread of at most
 * `maxViews` of the rest (names in capture order).
 */
export function viewsLeftOutOfStereo(registered: string[], keptOut: string[], maxViews = MAX_DEPTH_VIEWS): string[] {
  const heldOut = new Set(keptOut);
  const measured = new Set(spread([...registered].filter((name) => !heldOut.has(name)).sort(), maxViews));
  return registered.filter((name) => !measured.has(name));
}

/** Fewer fused points than this is not a dense model worth publishing. */
const MIN_DENSE_POINTS = 5000;
/** A point must be seen by this many images to be kept. */
const MIN_VIEWS = 3;
const ADVICE =
  "Capture the subject with more overlap between photos (move a little between shots, circle it at two heights) in even light; plain, shiny or see-through surfaces cannot be measured.";

/** The outputs later stages read (the mesh: images, cameras, points, region; the trainer: images, cameras, fused points, region). */
export const DENSE_OUTPUTS = ["dense/images", "dense/sparse", "dense/fused.ply", "dense/points.ply", "dense/roi.json"];

const seconds = (since: number) => Math.round((Date.now() - since) / 100) / 10;

export const denseStage: StageDefinition<DenseResult> = {
  name: "dense",
  // 3: the region of interest is a box around the well-seen points, not a sphere where the optical axes meet (issue 38 item 5).
  // 4: depth maps for at most MAX_DEPTH_VIEWS views.
  version: 4,
  outputs: DENSE_OUTPUTS,
  params: (ctx) => ({ dense: ctx.config.SCAN_DENSE, working: WORKING_SIZE, stereo: STEREO_SIZE, depthViews: MAX_DEPTH_VIEWS, minViews: MIN_VIEWS, region: REGION_RULE }),
  async run(ctx) {
    await rm(ctx.path("dense"), { recursive: true, force: true });
    if (ctx.config.SCAN_DENSE === "off") return { skipped: "dense reconstruction is off on this worker" };
    const frames = ctx.results.frames as FramesResult;
    const timings: Record<string, number> = {};
    let started = Date.now();
    await ctx.tool({
      command: ctx.config.COLMAP_BIN,
      args: ["image_undistorter", "--image_path", ctx.path("images"), "--input_path", ctx.path("sparse"), "--output_path", ctx.path("dense"), "--output_type", "COLMAP", "--max_image_size", String(WORKING_SIZE)],
      env: { QT_QPA_PLATFORM: "offscreen" },
    });
    timings.undistort = seconds(started);
    ctx.progress(0.1);
    started = Date.now();
    const images = parseImages(await readFile(ctx.path("sparse-txt/images.txt"), "utf8"));
    const leftOut = viewsLeftOutOfStereo(images.map((image) => image.name), framesKeptOut(frames));
    await writeFile(ctx.path("dense/left-out.txt"), leftOut.join("\n") + "\n");
    await ctx.tool({
      command: ctx.native("sr-stereo"),
      args: ["--workspace", ctx.path("dense"), "--skip", ctx.path("dense/left-out.txt"), "--size", String(STEREO_SIZE), "--threads", String(ctx.config.SCAN_THREADS)],
      parser: (line) => {
        const value = parseNativeProgress(line);
        return value === null ? null : 0.1 + 0.75 * value;
      },
      onProgress: (f) => ctx.progress(f),
    });
    timings.stereo = seconds(started);
    started = Date.now();
    await ctx.tool({
      command: ctx.config.COLMAP_BIN,
      args: [
        "stereo_fusion",
        "--workspace_path", ctx.path("dense"),
        "--workspace_format", "COLMAP",
        "--input_type", "geometric",
        "--output_path", ctx.path("dense/fused.ply"),
        // COLMAP's defaults for its own PatchMatch maps, which ours resemble (normals from the planes,
        // decision 032): on the CI set 35.9k fused points, against 23.4k at the plane sweep's looser 3 px / 2 % / 25°.
        "--StereoFusion.min_num_pixels", String(MIN_VIEWS),
        "--StereoFusion.max_reproj_error", "2",
        "--StereoFusion.max_depth_error", "0.01",
        "--StereoFusion.max_normal_error", "10",
      ],
      env: { QT_QPA_PLATFORM: "offscreen" },
    });
    timings.fusion = seconds(started);
    ctx.progress(0.95);
    started = Date.now();
    const fused = readDensePly(new Uint8Array(await readFile(ctx.path("dense/fused.ply"))));
    const visibility = existsSync(ctx.path("dense/fused.ply.vis")) ? readVisibilityCounts(new Uint8Array(await readFile(ctx.path("dense/fused.ply.vis")))) : null;
    const cameras = images.map((image) => {
      const r = rotationMatrix(image.q);
      return { centre: cameraCenter(image), axis: [r[6], r[7], r[8]] as [number, number, number] };
    });
    // From the points the cameras saw well, not from where the cameras stand or look: a capture may circle its
    // subject, face one wall, or walk through a room or down a street (issue 38 item 5).
    const roi = regionOfInterest({ positions: fused.positions, visibility, cameras, minViews: MIN_VIEWS });
    const kept = roi ? cropPoints({ points: fused, visibility, region: roi, cameras, minViews: MIN_VIEWS }) : null;
    timings.crop = seconds(started);
    if (!roi || !kept || kept.count < MIN_DENSE_POINTS) {
      await rm(ctx.path("dense"), { recursive: true, force: true });
      return {
        skipped: `Only ${kept?.count ?? 0} points of the subject could be measured in depth (${MIN_DENSE_POINTS} are needed for a dense model). ${ADVICE}`,
        fusedPoints: fused.count,
        points: kept?.count ?? 0,
        seconds: timings,
      };
    }
    await writeFile(ctx.path("dense/points.ply"), encodeOrientedPointsPly(kept.positions, kept.normals, kept.colors));
    await writeFile(ctx.path("dense/roi.json"), JSON.stringify(roi));
    // Depth maps and the like are not needed after fusion.
    await rm(ctx.path("dense/stereo"), { recursive: true, force: true });
    await mkdir(ctx.path("dense"), { recursive: true });
    ctx.progress(1);
    return { skipped: null, images: images.length - leftOut.length, fusedPoints: fused.count, points: kept.count, roi, workingSize: WORKING_SIZE, seconds: timings };
  },
};
