import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { readDensePly, type RegionOfInterest } from "../dense-points";
import { medianSpacing, removeSmallComponents, removeUnsupportedFaces, simplifyToBudget, SUPPORT_IN_SPACINGS, supportOptions, trimByDensity } from "../mesh-cleanup";
import { parsePoints } from "../colmap-model";
import { groundPlane, refinePlane, snapToPlane } from "../ground-plane";
import { cropMesh, readMeshPly, validateGlb, type Mesh } from "../mesh-glb";
import { assertValidGltf } from "../gltf-validation.server";
import { ToolError } from "~/tools/run-tool.server";
import type { StageContext, StageDefinition } from "../stage";
import { encodeTexturedGlb, parseTexturedObj } from "../textured-glb";
import { parseNativeProgress } from "../tool-progress";
import { compressGlbForWeb, summarizeWebGlb } from "../web-glb.server";
import type { DenseResult } from "./dense.server";
import { spread } from "../frame-selection";
import { framesKeptOut, type FramesResult } from "./input.server";

export const MESH_FILE = "mesh/model.glb";
export const MESH_LITE_FILE = "mesh/model-lite.glb";

export interface MeshResult {
  skipped: string | null;
  triangles?: number;
  vertices?: number;
  liteTriangles?: number;
  textureSize?: [number, number];
  /** Bytes of the web-ready GLBs (meshopt geometry, WebP atlas), and of the main one before compression. */
  bytes?: number;
  liteBytes?: number;
  uncompressedBytes?: number;
  /** The density the Poisson surface was cut at (octree levels) and the faces cut there. */
  densityTrim?: number;
  trimmedFaces?: number;
  /** Floating pieces removed from the Poisson surface before texturing. */
  removedComponents?: number;
  /** Faces of the Poisson surface removed because no dense point supports them. */
  unsupportedFaces?: number;
  /** Vertices of the surface put on the ground plane (0 when no plane holds enough of the surface). */
  groundVertices?: number;
  /** Structure-from-motion points the ground plane was refitted to (0: the surface's own plane was kept). */
  groundPoints?: number;
  seconds?: Record<string, number>;
}

/**
 * The surface the Poisson solver invents far from the points is cut where its sampling density falls this many
 * octree levels under the scan's median density (trimByDensity). COLMAP's own trim is set only so that it writes
 * the densities: at 1 it cuts nothing.
 */
const TRIM_BELOW_MEDIAN = 2;
const POISSON_WRITE_DENSITIES = 1;
/** Poisson octree depth of the surface both levels are simplified from. */
const POISSON_DEPTH = 9;
/** Connected pieces with fewer than this share of the surface's faces are floaters, removed. */
const MIN_COMPONENT_SHARE = 0.01;
/**
 * Vertices within this many dense-point spacings of the surface's dominant plane (the ground) are put on
 * it, when that plane holds at least MIN_GROUND_SHARE of the vertices (decision 031).
 */
const GROUND_SNAP_SPACINGS = 1.5;
const MIN_GROUND_SHARE = 0.2;
/** The ground's normal is within this many degrees of the upright frame's vertical (and the plane below the region's centre). */
const GROUND_MAX_TILT_DEG = 25;
/** The photos the texture is baked from are undistorted at up to this long side (px). */
const TEXTURE_VIEW_SIZE = 1600;
/**
 * At most this many photos paint the texture, spread over the capture: every frame of a 300-frame video at 1600 px
 * would take sr-texture over 5 GB and more than its time limit, and the video's mesh came out vertex-coloured.
 */
const MAX_TEXTURE_VIEWS = 60;
/** Largest atlas side (texels) of the main level (the light one: 2048). */
const ATLAS_MAX = 4096;

const seconds = (since: number) => Math.round((Date.now() - since) / 100) / 10;

/** A binary PLY of the mesh (vertex x/y/z, triangle lists) for sr-texture. */
function encodeMeshPly(mesh: Mesh): Buffer {
  const vertexCount = mesh.positions.length / 3;
  const faceCount = mesh.indices.length / 3;
  const header = `ply\nformat binary_little_endian 1.0\nelement vertex ${vertexCount}\nproperty float x\nproperty float y\nproperty float z\nelement face ${faceCount}\nproperty list uchar int vertex_indices\nend_header\n`;
  const head = Buffer.from(header, "latin1");
  const body = Buffer.alloc(vertexCount * 12 + faceCount * 13);
  for (let i = 0; i < vertexCount * 3; i++) body.writeFloatLE(mesh.positions[i], i * 4);
  let offset = vertexCount * 12;
  for (let f = 0; f < faceCount; f++) {
    body.writeUInt8(3, offset);
    for (let k = 0; k < 3; k++) body.writeInt32LE(mesh.indices[f * 3 + k], offset + 1 + k * 4);
    offset += 13;
  }
  return Buffer.concat([head, body]);
}

/** Runs a tool; a failure other than cancellation becomes the reason the mesh is skipped. */
async function attempt(step: string, run: () => Promise<unknown>): Promise<string | null> {
  try {
    await run();
    return null;
  } catch (error) {
    if (error instanceof ToolError && error.reason !== "aborted") return `${step}: ${error.message}`;
    throw error;
  }
}

/** One level of detail: the cleaned surface simplified to `maxTriangles`, textured into an atlas of at most `atlasMax`². */
interface Level {
  name: string;
  atlasMax: number;
  maxTriangles: number;
}

/** The main mesh and the light one for AR and product pages, both from one Poisson surface. */
const LEVELS: Level[] = [
  { name: "main", atlasMax: ATLAS_MAX, maxTriangles: 200_000 },
  { name: "lite", atlasMax: 2048, maxTriangles: 50_000 },
];

type LevelOutcome =
  | { skipped: string }
  | { skipped: null; glb: Uint8Array; uncompressedBytes: number; triangles: number; vertices: number; textureSize: [number, number] };

/** The Poisson surface of the cropped dense points, cut to the ROI, without floaters. */
async function cleanSurface(
  ctx: StageContext,
  roi: RegionOfInterest,
): Promise<{ skipped: string } | { skipped: null; surface: Mesh; removedComponents: number; unsupportedFaces: number; groundVertices: number; groundPoints: number; densityTrim: number; trimmedFaces: number }> {
  await mkdir(ctx.path("mesh/scratch"), { recursive: true });
  const poissonFailed = await attempt("Poisson meshing", () =>
    ctx.tool({
      command: ctx.config.COLMAP_BIN,
      args: [
        "poisson_mesher",
        "--input_path", ctx.path("dense/points.ply"),
        "--output_path", ctx.path("mesh/poisson.ply"),
        "--PoissonMeshing.depth", String(POISSON_DEPTH),
        "--PoissonMeshing.trim", String(POISSON_WRITE_DENSITIES),
        "--PoissonMeshing.num_threads", String(ctx.config.SCAN_THREADS),
      ],
      env: { QT_QPA_PLATFORM: "offscreen" },
      // The Poisson solver leaves empty PR_XXXXXX temporary files in its working folder: keep them in ours.
      cwd: ctx.path("mesh/scratch"),
      timeoutMs: ctx.config.SCAN_MESH_TIMEOUT_SECONDS * 1000,
    }),
  );
  if (poissonFailed) return { skipped: poissonFailed };
  const poisson = readMeshPly(new Uint8Array(await readFile(ctx.path("mesh/poisson.ply"))));
  if (!poisson.densities) return { skipped: "the Poisson mesher wrote no sampling densities" };
  const trimmed = trimByDensity(poisson, poisson.densities, TRIM_BELOW_MEDIAN);
  const cropped = cropMesh(trimmed.mesh, roi);
  if (cropped.indices.length === 0) return { skipped: "the Poisson mesher found no surface inside the region of interest" };
  // Where no dense point supports the surface, Poisson invented it: cut there, then drop the crumbs.
  const points = readDensePly(new Uint8Array(await readFile(ctx.path("dense/points.ply")))).positions;
  const spacing = medianSpacing(points);
  const supported = removeUnsupportedFaces(cropped, points, supportOptions(spacing));
  const cleaned = removeSmallComponents(supported.mesh, MIN_COMPONENT_SHARE);
  const removedComponents = cleaned.removedComponents;
  let mesh = cleaned.mesh;
  // The ground under the object is flat; the noise of the points it was meshed from is not (decision 031). It
  // goes where the structure-from-motion points measured it: the dense surface sits a little above (decision 032).
  // Only a level plane below the region's centre is ground: a facade's or a courtyard's wall is not (issue 38 item 5).
  const groundReach = GROUND_SNAP_SPACINGS * spacing;
  const ground = groundPlane({ positions: mesh.positions, threshold: groundReach, centre: roi.center, maxTiltDeg: GROUND_MAX_TILT_DEG });
  let groundVertices = 0;
  let groundPoints = 0;
  if (ground && ground.share >= MIN_GROUND_SHARE) {
    const sparse = parsePoints(await readFile(ctx.path("sparse-txt/points3D.txt"), "utf8")).positions;
    const measured = refinePlane(ground.plane, Float32Array.from(sparse), groundReach);
    const snapped = snapToPlane(mesh, ground.plane, groundReach, measured?.plane);
    mesh = snapped.mesh;
    groundVertices = snapped.snapped;
    groundPoints = measured?.points ?? 0;
  }
  if (mesh.indices.length === 0) return { skipped: "no part of the Poisson surface is supported by the dense points" };
  return { skipped: null, surface: mesh, removedComponents, unsupportedFaces: supported.removedFaces, groundVertices, groundPoints, densityTrim: Math.round(trimmed.trim * 100) / 100, trimmedFaces: trimmed.removedFaces };
}

async function texturedLevel(ctx: StageContext, surface: Mesh, level: Level, progress: [number, number]): Promise<LevelOutcome> {
  const dir = `mesh/${level.name}`;
  await mkdir(ctx.path(dir), { recursive: true });
  const timeoutMs = ctx.config.SCAN_MESH_TIMEOUT_SECONDS * 1000;
  const { mesh } = await simplifyToBudget(surface, level.maxTriangles);
  await writeFile(ctx.path(`${dir}/surface.ply`), encodeMeshPly(mesh));
  const [from, to] = progress;
  ctx.progress(from + 0.1 * (to - from));
  const textureFailed = await attempt("texturing", () =>
    ctx.tool({
      command: ctx.native("sr-texture"),
      args: [
        "--mesh", ctx.path(`${dir}/surface.ply`),
        "--model", ctx.path("mesh/texture-views/sparse"),
        "--images", ctx.path("mesh/texture-views/images"),
        "--skip", ctx.path("mesh/holdout.txt"),
        "--output", ctx.path(`${dir}/textured`),
        "--max-texture", String(level.atlasMax),
      ],
      parser: (line) => {
        const value = parseNativeProgress(line);
        return value === null ? null : from + (0.1 + 0.7 * value) * (to - from);
      },
      onProgress: (f) => ctx.progress(f),
      timeoutMs,
    }),
  );
  if (textureFailed) return { skipped: textureFailed };
  const png = new Uint8Array(await readFile(ctx.path(`${dir}/textured/atlas.png`)));
  const textured = parseTexturedObj(await readFile(ctx.path(`${dir}/textured/mesh.obj`), "utf8"));
  const raw = encodeTexturedGlb(textured, png);
  await assertValidGltf(raw);
  validateGlb(raw);
  // Web-ready: meshopt geometry and a WebP atlas, checked again after compression.
  const glb = await compressGlbForWeb(raw);
  await assertValidGltf(glb);
  const summary = await summarizeWebGlb(glb);
  const triangles = textured.indices.length / 3;
  if (summary.triangles !== triangles || summary.textures.length !== 1) throw new Error("the compressed mesh does not decode to what was textured");
  return { skipped: null, glb, uncompressedBytes: raw.length, triangles, vertices: summary.vertices, textureSize: summary.textures[0] };
}

async function buildMesh(ctx: StageContext, roi: RegionOfInterest): Promise<MeshResult> {
  const timings: Record<string, number> = {};
  let started = Date.now();
  // The photos that paint the texture: training frames only (test and validation frames judge the result), at
  // most MAX_TEXTURE_VIEWS of them spread over the capture; the others are skipped by sr-texture.
  const frames = ctx.results.frames as FramesResult;
  const keptOut = new Set(framesKeptOut(frames));
  const painters = spread(frames.frames.filter((name) => !keptOut.has(name)), MAX_TEXTURE_VIEWS);
  const chosen = new Set(painters);
  await writeFile(ctx.path("mesh/texture-views.txt"), painters.join("\n") + "\n");
  await writeFile(ctx.path("mesh/holdout.txt"), frames.frames.filter((name) => !chosen.has(name)).join("\n") + "\n");
  const undistortFailed = await attempt("undistorting the photos for the texture", () =>
    ctx.tool({
      command: ctx.config.COLMAP_BIN,
      args: [
        "image_undistorter",
        "--image_path", ctx.path("images"),
        "--input_path", ctx.path("sparse"),
        "--output_path", ctx.path("mesh/texture-views"),
        "--output_type", "COLMAP",
        "--max_image_size", String(TEXTURE_VIEW_SIZE),
        "--image_list_path", ctx.path("mesh/texture-views.txt"),
      ],
      env: { QT_QPA_PLATFORM: "offscreen" },
      timeoutMs: ctx.config.SCAN_MESH_TIMEOUT_SECONDS * 1000,
    }),
  );
  if (undistortFailed) return { skipped: undistortFailed, seconds: timings };
  timings.undistort = seconds(started);
  ctx.progress(0.1);

  started = Date.now();
  const surface = await cleanSurface(ctx, roi);
  timings.poisson = seconds(started);
  if (surface.skipped !== null) return { skipped: surface.skipped, seconds: timings };
  ctx.progress(0.25);

  started = Date.now();
  const main = await texturedLevel(ctx, surface.surface, LEVELS[0], [0.25, 0.75]);
  timings.main = seconds(started);
  if (main.skipped !== null) return { skipped: main.skipped, seconds: timings };
  await writeFile(ctx.path(MESH_FILE), main.glb);
  started = Date.now();
  const lite = await texturedLevel(ctx, surface.surface, LEVELS[1], [0.75, 0.95]);
  timings.lite = seconds(started);
  if (lite.skipped !== null) return { skipped: `light mesh: ${lite.skipped}`, seconds: timings };
  await writeFile(ctx.path(MESH_LITE_FILE), lite.glb);
  return {
    skipped: null,
    triangles: main.triangles,
    vertices: main.vertices,
    liteTriangles: lite.triangles,
    textureSize: main.textureSize,
    bytes: main.glb.length,
    liteBytes: lite.glb.length,
    uncompressedBytes: main.uncompressedBytes,
    densityTrim: surface.densityTrim,
    trimmedFaces: surface.trimmedFaces,
    removedComponents: surface.removedComponents,
    unsupportedFaces: surface.unsupportedFaces,
    groundVertices: surface.groundVertices,
    groundPoints: surface.groundPoints,
    seconds: timings,
  };
}

/**
 * The textured mesh (issue 14), at two levels of detail: the Poisson surface of the dense points trimmed by its
 * density and cut to the region of interest, floaters removed, the ground put where the cameras measured it,
 * simplified to each level's budget, textured by sr-texture (one photo per patch of faces) from the full-size
 * undistorted photos, written as web-ready GLBs (meshopt geometry, WebP atlas).
 * A failing tool skips the mesh with its reason; only cancellation fails the stage.
 */
export const meshStage: StageDefinition<MeshResult> = {
  name: "mesh",
  // 3: photo-consistent views blended per texel, atlas cells in surface order and sized to the photos (decision 023).
  // 4: surface continued past the measured points removed (removeUnsupportedFaces).
  // 5: the ground's vertices put on its plane (snapToPlane).
  // 6: Poisson trimmed by its density distribution; the ground refitted to the sparse points; one photo per patch (decision 034).
  // 7: cut to the region's box (not a sphere), and the ground only a level plane below its centre (issue 38 item 5).
  // 8: at most MAX_TEXTURE_VIEWS training frames paint the texture; validation frames never do (issue 38).
  version: 8,
  outputs: [MESH_FILE, MESH_LITE_FILE],
  params: (ctx) => ({ mesh: ctx.config.SCAN_MESH, levels: LEVELS, depth: POISSON_DEPTH, trim: [POISSON_WRITE_DENSITIES, TRIM_BELOW_MEDIAN], minComponent: MIN_COMPONENT_SHARE, support: SUPPORT_IN_SPACINGS, ground: [GROUND_SNAP_SPACINGS, MIN_GROUND_SHARE, GROUND_MAX_TILT_DEG], views: TEXTURE_VIEW_SIZE, painters: MAX_TEXTURE_VIEWS, atlas: ATLAS_MAX }),
  async run(ctx) {
    await rm(ctx.path("mesh"), { recursive: true, force: true });
    if (ctx.config.SCAN_MESH === "off") return { skipped: "mesh building is off on this worker" };
    const dense = ctx.results.dense as DenseResult | undefined;
    if (!dense || dense.skipped || !dense.roi) return { skipped: `no dense points to mesh${dense?.skipped ? `: ${dense.skipped}` : ""}` };
    await mkdir(ctx.path("mesh"), { recursive: true });
    let result: MeshResult;
    try {
      result = await buildMesh(ctx, dense.roi);
    } catch (error) {
      if (error instanceof ToolError && error.reason === "aborted") throw error;
      // Unreadable tool output or a GLB that fails its checks: the scan goes on without a mesh.
      result = { skipped: `the textured mesh could not be built: ${(error as Error).message}` };
    }
    // Only the GLBs are kept.
    for (const scratch of ["mesh/texture-views", "mesh/texture-views.txt", "mesh/main", "mesh/lite", "mesh/holdout.txt", "mesh/poisson.ply", "mesh/scratch"]) await rm(ctx.path(scratch), { recursive: true, force: true });
    if (result.skipped) {
      // A skipped mesh leaves no half set of files behind.
      for (const file of [MESH_FILE, MESH_LITE_FILE]) await rm(ctx.path(file), { force: true });
      return result;
    }
    ctx.progress(1);
    return result;
  },
};
