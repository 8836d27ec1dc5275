import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import type { RegionOfInterest } from "../dense-points";
import { cropMesh, readMeshPly, validateGlb, type Mesh } from "../mesh-glb";
import { assertValidGltf } from "../gltf-validation.server";
import { ToolError } from "../run-tool.server";
import type { StageContext, StageDefinition } from "../stage";
import { encodeTexturedGlb, parseTexturedObj } from "../textured-glb";
import { parseNativeProgress } from "../tool-progress";
import type { DenseResult } from "./dense.server";
import type { FramesResult } from "./input.server";

export const MESH_FILE = "mesh/model.glb";
export const MESH_LITE_FILE = "mesh/model-lite.glb";

export interface MeshResult {
  skipped: string | null;
  triangles?: number;
  vertices?: number;
  liteTriangles?: number;
  textureSize?: [number, number];
  seconds?: Record<string, number>;
}

/** Poisson trim (COLMAP's density units): drops the surface the solver invents far from the points. */
const POISSON_TRIM = 4;
/** The photos the texture is baked from are undistorted at up to this long side (px). */
const TEXTURE_VIEW_SIZE = 1600;
/** Largest atlas side (texels) and the preferred texels per face cell. */
const ATLAS_MAX = 4096;
const ATLAS_CELL = 16;

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

/** One level of detail: Poisson at `depth`, cut to the ROI, textured into an atlas of at most `atlasMax`². */
interface Level {
  name: string;
  depth: number;
  atlasMax: number;
  maxTriangles: number;
}

/** The main mesh and the light one for AR and product pages (a coarser Poisson grid, ≤ 50k triangles). */
const LEVELS: Level[] = [
  { name: "main", depth: 9, atlasMax: ATLAS_MAX, maxTriangles: 200_000 },
  { name: "lite", depth: 7, atlasMax: 2048, maxTriangles: 50_000 },
];

type LevelOutcome = { skipped: string } | { skipped: null; glb: Buffer; triangles: number; vertices: number; textureSize: [number, number] };

async function texturedLevel(ctx: StageContext, roi: RegionOfInterest, level: Level, progress: [number, number]): Promise<LevelOutcome> {
  const dir = `mesh/${level.name}`;
  await mkdir(ctx.path(dir), { recursive: true });
  const timeoutMs = ctx.config.SCAN_MESH_TIMEOUT_SECONDS * 1000;
  const poissonFailed = await attempt("Poisson meshing", () =>
    ctx.tool({
      command: ctx.config.COLMAP_BIN,
      args: [
        "poisson_mesher",
        "--input_path", ctx.path("dense/points.ply"),
        "--output_path", ctx.path(`${dir}/poisson.ply`),
        "--PoissonMeshing.depth", String(level.depth),
        "--PoissonMeshing.trim", String(POISSON_TRIM),
        "--PoissonMeshing.num_threads", String(ctx.config.SCAN_THREADS),
      ],
      env: { QT_QPA_PLATFORM: "offscreen" },
      timeoutMs,
    }),
  );
  if (poissonFailed) return { skipped: poissonFailed };
  const surface = cropMesh(readMeshPly(new Uint8Array(await readFile(ctx.path(`${dir}/poisson.ply`)))), roi);
  const faces = surface.indices.length / 3;
  if (faces === 0) return { skipped: "the Poisson mesher found no surface inside the region of interest" };
  if (faces > level.maxTriangles) return { skipped: `the ${level.name} surface has ${faces} triangles (more than ${level.maxTriangles})` };
  await writeFile(ctx.path(`${dir}/surface.ply`), encodeMeshPly(surface));
  const [from, to] = progress;
  ctx.progress(from + 0.3 * (to - from));
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
        "--cell", String(ATLAS_CELL),
      ],
      parser: (line) => {
        const value = parseNativeProgress(line);
        return value === null ? null : from + (0.3 + 0.65 * value) * (to - from);
      },
      onProgress: (f) => ctx.progress(f),
      timeoutMs,
    }),
  );
  if (textureFailed) return { skipped: textureFailed };
  const png = new Uint8Array(await readFile(ctx.path(`${dir}/textured/atlas.png`)));
  const textured = parseTexturedObj(await readFile(ctx.path(`${dir}/textured/mesh.obj`), "utf8"));
  const glb = encodeTexturedGlb(textured, png);
  await assertValidGltf(glb);
  validateGlb(glb);
  // PNG header: width and height are big-endian at bytes 16 and 20.
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { skipped: null, glb, triangles: textured.indices.length / 3, vertices: textured.positions.length / 3, textureSize: [view.getUint32(16), view.getUint32(20)] };
}

async function buildMesh(ctx: StageContext, roi: RegionOfInterest): Promise<MeshResult> {
  const timings: Record<string, number> = {};
  let started = Date.now();
  const undistortFailed = await attempt("undistorting the photos for the texture", () =>
    ctx.tool({
      command: ctx.config.COLMAP_BIN,
      args: ["image_undistorter", "--image_path", ctx.path("images"), "--input_path", ctx.path("sparse"), "--output_path", ctx.path("mesh/texture-views"), "--output_type", "COLMAP", "--max_image_size", String(TEXTURE_VIEW_SIZE)],
      env: { QT_QPA_PLATFORM: "offscreen" },
      timeoutMs: ctx.config.SCAN_MESH_TIMEOUT_SECONDS * 1000,
    }),
  );
  if (undistortFailed) return { skipped: undistortFailed, seconds: timings };
  timings.undistort = seconds(started);
  // Held-out frames judge the result: they must not paint it.
  const frames = ctx.results.frames as FramesResult | undefined;
  await writeFile(ctx.path("mesh/holdout.txt"), (frames?.holdout ?? []).join("\n") + "\n");
  ctx.progress(0.1);

  started = Date.now();
  const main = await texturedLevel(ctx, roi, LEVELS[0], [0.1, 0.7]);
  timings.main = seconds(started);
  if (main.skipped !== null) return { skipped: main.skipped, seconds: timings };
  await writeFile(ctx.path(MESH_FILE), main.glb);
  started = Date.now();
  const lite = await texturedLevel(ctx, roi, LEVELS[1], [0.7, 0.95]);
  timings.lite = seconds(started);
  if (lite.skipped !== null) return { skipped: `light mesh: ${lite.skipped}`, seconds: timings };
  await writeFile(ctx.path(MESH_LITE_FILE), lite.glb);
  return {
    skipped: null,
    triangles: main.triangles,
    vertices: main.vertices,
    liteTriangles: lite.triangles,
    textureSize: main.textureSize,
    seconds: timings,
  };
}

/**
 * The textured mesh (issue 14), at two levels of detail: Poisson surfaces of the dense points cut to the
 * region of interest, textured by sr-texture from the full-size undistorted photos, written as GLBs.
 * A failing tool skips the mesh with its reason; only cancellation fails the stage.
 */
export const meshStage: StageDefinition<MeshResult> = {
  name: "mesh",
  version: 1,
  outputs: [MESH_FILE, MESH_LITE_FILE],
  params: (ctx) => ({ mesh: ctx.config.SCAN_MESH, levels: LEVELS, trim: POISSON_TRIM, views: TEXTURE_VIEW_SIZE, atlas: ATLAS_MAX, cell: ATLAS_CELL }),
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
    for (const scratch of ["mesh/texture-views", "mesh/main", "mesh/lite", "mesh/holdout.txt"]) await rm(ctx.path(scratch), { recursive: true, force: true });
    if (result.skipped) {
      // A skipped mesh leaves no half set of files behind.
      for (const file of [MESH_FILE, MESH_LITE_FILE]) await rm(ctx.path(file), { force: true });
      return result;
    }
    ctx.progress(1);
    return result;
  },
};
