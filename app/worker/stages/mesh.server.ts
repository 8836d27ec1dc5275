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

async function buildMesh(ctx: StageContext, roi: RegionOfInterest, timings: Record<string, number>): Promise<MeshResult> {
  const timeoutMs = ctx.config.SCAN_MESH_TIMEOUT_SECONDS * 1000;
  let started = Date.now();
  const poissonFailed = await attempt("Poisson meshing", () =>
    ctx.tool({
      command: ctx.config.COLMAP_BIN,
      args: [
        "poisson_mesher",
        "--input_path", ctx.path("dense/points.ply"),
        "--output_path", ctx.path("mesh/poisson.ply"),
        "--PoissonMeshing.depth", String(Math.max(ctx.config.SCAN_MESH_DEPTH, 9)),
        "--PoissonMeshing.trim", String(POISSON_TRIM),
        "--PoissonMeshing.num_threads", String(ctx.config.SCAN_THREADS),
      ],
      env: { QT_QPA_PLATFORM: "offscreen" },
      timeoutMs,
    }),
  );
  if (poissonFailed) return { skipped: poissonFailed, seconds: timings };
  const surface = cropMesh(readMeshPly(new Uint8Array(await readFile(ctx.path("mesh/poisson.ply")))), roi);
  if (surface.indices.length === 0) return { skipped: "the Poisson mesher found no surface inside the region of interest", seconds: timings };
  await writeFile(ctx.path("mesh/surface.ply"), encodeMeshPly(surface));
  timings.surface = seconds(started);
  ctx.progress(0.3);

  started = Date.now();
  const undistortFailed = await attempt("undistorting the photos for the texture", () =>
    ctx.tool({
      command: ctx.config.COLMAP_BIN,
      args: ["image_undistorter", "--image_path", ctx.path("images"), "--input_path", ctx.path("sparse"), "--output_path", ctx.path("mesh/texture-views"), "--output_type", "COLMAP", "--max_image_size", String(TEXTURE_VIEW_SIZE)],
      env: { QT_QPA_PLATFORM: "offscreen" },
      timeoutMs,
    }),
  );
  if (undistortFailed) return { skipped: undistortFailed, seconds: timings };
  timings.undistort = seconds(started);
  ctx.progress(0.45);

  started = Date.now();
  // Held-out frames judge the result: they must not paint it.
  const frames = ctx.results.frames as FramesResult | undefined;
  await writeFile(ctx.path("mesh/holdout.txt"), (frames?.holdout ?? []).join("\n") + "\n");
  const textureFailed = await attempt("texturing", () =>
    ctx.tool({
      command: ctx.native("sr-texture"),
      args: [
        "--mesh", ctx.path("mesh/surface.ply"),
        "--model", ctx.path("mesh/texture-views/sparse"),
        "--images", ctx.path("mesh/texture-views/images"),
        "--skip", ctx.path("mesh/holdout.txt"),
        "--output", ctx.path("mesh/textured"),
        "--max-texture", String(ATLAS_MAX),
        "--cell", String(ATLAS_CELL),
      ],
      parser: (line) => {
        const value = parseNativeProgress(line);
        return value === null ? null : 0.45 + 0.45 * value;
      },
      onProgress: (f) => ctx.progress(f),
      timeoutMs,
    }),
  );
  if (textureFailed) return { skipped: textureFailed, seconds: timings };
  timings.texture = seconds(started);

  started = Date.now();
  const png = new Uint8Array(await readFile(ctx.path("mesh/textured/atlas.png")));
  const textured = parseTexturedObj(await readFile(ctx.path("mesh/textured/mesh.obj"), "utf8"));
  const glb = encodeTexturedGlb(textured, png);
  await assertValidGltf(glb);
  await writeFile(ctx.path(MESH_FILE), glb);
  timings.glb = seconds(started);
  // PNG header: width and height are big-endian at bytes 16 and 20.
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  await rm(ctx.path("mesh/texture-views"), { recursive: true, force: true });
  return {
    skipped: null,
    triangles: textured.indices.length / 3,
    vertices: textured.positions.length / 3,
    textureSize: [view.getUint32(16), view.getUint32(20)],
    seconds: timings,
  };
}

/**
 * The textured mesh (issue 14): Poisson surface of the dense points cut to the region of interest, textured
 * by sr-texture from the full-size undistorted photos, written as a GLB. A failing tool skips the mesh with
 * its reason; only cancellation fails the stage.
 */
export const meshStage: StageDefinition<MeshResult> = {
  name: "mesh",
  version: 1,
  outputs: [MESH_FILE],
  params: (ctx) => ({ mesh: ctx.config.SCAN_MESH, depth: ctx.config.SCAN_MESH_DEPTH, trim: POISSON_TRIM, views: TEXTURE_VIEW_SIZE, atlas: ATLAS_MAX, cell: ATLAS_CELL }),
  async run(ctx) {
    await rm(ctx.path("mesh"), { recursive: true, force: true });
    if (ctx.config.SCAN_MESH === "off") return { skipped: "mesh building is off on this worker" };
    const dense = ctx.results.dense as DenseResult | undefined;
    if (!dense || dense.skipped || !dense.roi) return { skipped: `no dense points to mesh${dense?.skipped ? `: ${dense.skipped}` : ""}` };
    await mkdir(ctx.path("mesh"), { recursive: true });
    const result = await buildMesh(ctx, dense.roi, {});
    if (result.skipped) return result;
    // The structural checks the export stage applies too (chunks, bounds, accessor sizes).
    try {
      validateGlb(new Uint8Array(await readFile(ctx.path(MESH_FILE))));
    } catch (error) {
      await rm(ctx.path(MESH_FILE), { force: true });
      return { skipped: `the textured GLB failed its checks: ${(error as Error).message}`, seconds: result.seconds };
    }
    ctx.progress(1);
    return result;
  },
};
