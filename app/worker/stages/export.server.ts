import { existsSync } from "node:fs";
import { copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { cameraCenter, parseCameras, parseImages, parsePoints } from "../colmap-model";
import type { RegionOfInterest } from "../dense-points";
import { openingView, type OpeningView } from "../opening-view";
import { DeliveryCopyError, makeDeliveryCopy } from "~/domain/splat-delivery.server";
import { assertValidGltf } from "../gltf-validation.server";
import { cropMesh, encodeGlb, readMeshPly, validateGlb } from "../mesh-glb";
import { estimateNormals, nearestNeighbours } from "../point-geometry";
import { ToolError } from "~/tools/run-tool.server";
import { encodeOrientedPointsPly, validateSplatPly } from "~/formats/splat-ply";
import type { StageContext, StageDefinition } from "../stage";
import type { FramesResult } from "./input.server";
import type { DenseResult } from "./dense.server";
import { summarizeWebGlb } from "../web-glb.server";
import { MESH_FILE, MESH_LITE_FILE, type MeshResult } from "./mesh.server";
import type { SplatResult } from "./splat.server";

export interface ExportResult {
  ply: { bytes: number; splats: number };
  /**
   * The compact copy viewers download (.sog, every splat kept), or null with the reason; with its coarse
   * copy (export/model.coarse.sog) when the splat is large enough and it could be made (absent from
   * results recorded before issue 20: read it as null).
   */
  delivery: { bytes: number; splats: number; format: "sog"; coarse?: { bytes: number; splats: number } | null } | null;
  deliverySkipped?: string | null;
  glb: { bytes: number; vertices: number; triangles: number } | null;
  /** Why there is no GLB (mesh export off, too slow, or nothing to mesh). */
  meshSkipped: string | null;
  /** The view the scan opens with (item settings' camera, in the viewer's frame). */
  openingView?: OpeningView | null;
  thumbnail: boolean;
}

/** Points with larger reprojection errors are left out of the mesh (px). */
const MESH_MAX_ERROR = 2;
/** Poisson trim: drop the low-density surface the solver invents far from any point. */
const POISSON_TRIM = 4;

/**
 * The GLB mesh: sparse points get normals (local PCA, facing the cameras that saw them), COLMAP's
 * Poisson mesher builds a surface on the CPU, and we write it as a GLB with vertex colours, turned
 * from COLMAP's y-down frame to glTF's y-up. Time-boxed: a slow or failed mesh skips the GLB only.
 */
async function exportMesh(ctx: StageContext): Promise<{ result: ExportResult["glb"]; skipped: string | null }> {
  if (ctx.config.SCAN_MESH === "off") return { result: null, skipped: "mesh export is off on this worker" };
  // The textured mesh of the mesh stage, checked again; without one, a vertex-coloured Poisson mesh.
  const textured = ctx.results.mesh as MeshResult | undefined;
  if (textured && !textured.skipped && existsSync(ctx.path(MESH_FILE))) {
    const glb = await readFile(ctx.path(MESH_FILE));
    await summarizeWebGlb(glb); // decodes the compressed geometry and atlas
    await assertValidGltf(glb);
    await writeFile(ctx.path("export/mesh.glb"), glb);
    if (existsSync(ctx.path(MESH_LITE_FILE))) {
      const lite = await readFile(ctx.path(MESH_LITE_FILE));
      await summarizeWebGlb(lite);
      await assertValidGltf(lite);
      await writeFile(ctx.path("export/mesh-lite.glb"), lite);
    }
    // Triangles as the mesh stage counted them (its GLB draws faces without shared vertices).
    return { result: { bytes: glb.length, vertices: textured.vertices ?? 0, triangles: textured.triangles ?? 0 }, skipped: null };
  }
  // A dense scan whose textured mesh failed: the owner is told why (issue 38 item 7), with no vertex-coloured stand-in.
  const dense = ctx.results.dense as DenseResult | undefined;
  if (dense && !dense.skipped) return { result: null, skipped: textured?.skipped ?? "the textured mesh was not built" };
  // Without dense geometry: a vertex-coloured surface of the sparse points.
  const points = parsePoints(await readFile(ctx.path("sparse-txt/points3D.txt"), "utf8"));
  const images = parseImages(await readFile(ctx.path("sparse-txt/images.txt"), "utf8"));
  const keep: number[] = [];
  for (let i = 0; i < points.count; i++) if (points.errors[i] <= MESH_MAX_ERROR) keep.push(i);
  if (keep.length < 100) return { result: null, skipped: "too few points to mesh" };
  const positions = new Float64Array(keep.length * 3);
  const colors = new Uint8Array(keep.length * 3);
  keep.forEach((source, i) => {
    positions.set(points.positions.subarray(source * 3, source * 3 + 3), i * 3);
    colors.set(points.colors.subarray(source * 3, source * 3 + 3), i * 3);
  });
  const centres = new Map(images.map((image) => [image.id, cameraCenter(image)]));
  const normals = estimateNormals(positions, nearestNeighbours(positions, 12), (i) => {
    const sum = [0, 0, 0];
    let n = 0;
    for (const id of points.tracks[keep[i]]) {
      const c = centres.get(id);
      if (!c) continue;
      sum[0] += c[0];
      sum[1] += c[1];
      sum[2] += c[2];
      n++;
    }
    return n ? [sum[0] / n, sum[1] / n, sum[2] / n] : null;
  });
  ctx.progress(0.2);
  await mkdir(ctx.path("export-mesh"), { recursive: true });
  await writeFile(ctx.path("export-mesh/points.ply"), encodeOrientedPointsPly(positions, normals, colors));
  return poissonGlb(ctx, { input: ctx.path("export-mesh/points.ply"), depth: ctx.config.SCAN_MESH_DEPTH, roi: null });
}

/**
 * COLMAP's Poisson mesher on oriented points (time-boxed: a slow or failed mesh skips the GLB only), the
 * surface cut to the region of interest when there is one, written as a GLB with vertex colours and
 * turned from COLMAP's frame (y down, z forward) to glTF's (y up, z towards the viewer).
 */
async function poissonGlb(ctx: StageContext, input: { input: string; depth: number; roi: RegionOfInterest | null }): Promise<{ result: ExportResult["glb"]; skipped: string | null }> {
  await mkdir(ctx.path("export-mesh"), { recursive: true });
  try {
    await ctx.tool({
      command: ctx.config.COLMAP_BIN,
      args: [
        "poisson_mesher",
        "--input_path", input.input,
        "--output_path", ctx.path("export-mesh/meshed.ply"),
        "--PoissonMeshing.depth", String(input.depth),
        "--PoissonMeshing.trim", String(POISSON_TRIM),
        "--PoissonMeshing.num_threads", String(ctx.config.SCAN_THREADS),
      ],
      env: { QT_QPA_PLATFORM: "offscreen" },
      // The Poisson solver leaves empty PR_XXXXXX temporary files in its working folder: keep them in ours.
      cwd: ctx.path("export-mesh"),
      timeoutMs: ctx.config.SCAN_MESH_TIMEOUT_SECONDS * 1000,
    });
  } catch (error) {
    if (error instanceof ToolError && error.reason !== "aborted") return { result: null, skipped: `Poisson meshing: ${error.message}` };
    throw error;
  }
  ctx.progress(0.7);
  const meshed = readMeshPly(new Uint8Array(await readFile(ctx.path("export-mesh/meshed.ply"))));
  const mesh = input.roi ? cropMesh(meshed, input.roi) : meshed;
  if (mesh.indices.length === 0) return { result: null, skipped: input.roi ? "the Poisson mesher found no surface inside the region of interest" : "the Poisson mesher found no surface" };
  for (let i = 0; i < mesh.positions.length; i += 3) {
    mesh.positions[i + 1] = -mesh.positions[i + 1];
    mesh.positions[i + 2] = -mesh.positions[i + 2];
  }
  const glb = encodeGlb(mesh);
  const checked = validateGlb(glb);
  await assertValidGltf(glb);
  await writeFile(ctx.path("export/mesh.glb"), glb);
  await rm(ctx.path("export-mesh"), { recursive: true, force: true });
  return { result: { bytes: glb.length, ...checked }, skipped: null };
}

/** Where the scan opens: a capture camera looking at the subject (the dense region of interest, else the origin the mapping stage centred on). */
async function exportOpeningView(ctx: StageContext): Promise<OpeningView | null> {
  const dense = ctx.results.dense as DenseResult | undefined;
  const subject = (dense && !dense.skipped && dense.roi ? dense.roi.center : [0, 0, 0]) as [number, number, number];
  const images = parseImages(await readFile(ctx.path("sparse-txt/images.txt"), "utf8"));
  const cameras = parseCameras(await readFile(ctx.path("sparse-txt/cameras.txt"), "utf8"));
  return openingView({ images, cameras, subject });
}

/**
 * The .sog copy viewers download (about a fifth of the .ply), read back with every splat present, and
 * its coarse copy for large splats. A splat the converter refuses is published without one: viewers
 * then get the .ply.
 */
async function exportDeliveryCopy(ctx: StageContext, splats: number): Promise<{ result: ExportResult["delivery"]; skipped: string | null }> {
  try {
    const copy = await makeDeliveryCopy({
      inputPath: ctx.path("export/model.ply"),
      outputPath: ctx.path("export/model.sog"),
      coarseOutputPath: ctx.path("export/model.coarse.sog"),
      expectedSplats: splats,
      signal: ctx.signal,
    });
    const coarse = copy.coarse ? { bytes: copy.coarse.bytes, splats: copy.coarse.splats } : null;
    return { result: { bytes: copy.bytes, splats: copy.splats, format: "sog", coarse }, skipped: null };
  } catch (error) {
    if (error instanceof DeliveryCopyError) return { result: null, skipped: error.message };
    throw error;
  }
}

export const exportStage: StageDefinition<ExportResult> = {
  name: "export",
  // 4: a dense scan's Poisson mesh cut to the region's box, and the opening view aimed at the box's centre (issue 38 item 5).
  // 5: a dense scan without its textured mesh gets none, with the reason (no vertex-coloured stand-in; issue 38 item 7).
  version: 5,
  outputs: ["export"],
  params: (ctx) => ({ mesh: ctx.config.SCAN_MESH, depth: ctx.config.SCAN_MESH_DEPTH, trim: POISSON_TRIM }),
  async run(ctx) {
    const splat = ctx.results.splat as SplatResult;
    const frames = ctx.results.frames as FramesResult;
    await rm(ctx.path("export"), { recursive: true, force: true });
    await mkdir(ctx.path("export"), { recursive: true });
    // The delivered .ply, read back before it is published.
    await copyFile(ctx.path("splat/model.ply"), ctx.path("export/model.ply"));
    const ply = await readFile(ctx.path("export/model.ply"));
    const { count } = validateSplatPly(ply);
    if (count !== splat.splats) throw new Error(`the exported splat has ${count} splats, ${splat.splats} were written`);
    ctx.progress(0.05);
    const delivery = await exportDeliveryCopy(ctx, count);
    ctx.progress(0.1);
    const mesh = await exportMesh(ctx);
    const opening = await exportOpeningView(ctx);
    // The thumbnail: the frame from the middle of the capture.
    const frame = frames.frames[Math.floor(frames.frames.length / 2)];
    await ctx.tool({
      command: ctx.config.FFMPEG_BIN,
      args: ["-hide_banner", "-loglevel", "error", "-y", "-i", ctx.path(`images/${frame}`), "-vf", "scale='min(640,iw)':-2", "-frames:v", "1", "-q:v", "4", ctx.path("export/thumbnail.jpg")],
    });
    ctx.progress(1);
    return {
      ply: { bytes: ply.length, splats: count },
      delivery: delivery.result,
      deliverySkipped: delivery.skipped,
      glb: mesh.result,
      meshSkipped: mesh.skipped,
      openingView: opening,
      thumbnail: true,
    };
  },
};
