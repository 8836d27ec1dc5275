/**
 * The one definition of a scan's quality (issue 38): the published model — the delivered splat as viewers
 * decode it (the .sog's values, through the same reader as thumbnails) and the textured mesh — drawn by the
 * software renderers from capture cameras over the whole frame, on the background the viewer shows, and
 * compared with the photo undistorted with the same camera model (COLMAP's image_undistorter). PSNR, SSIM
 * (3DGS's) and the share of the frame the model covers.
 */
import { existsSync } from "node:fs";
import { mkdir, rm, writeFile, readFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { boundsRadius, type Bounds } from "~/viewer/bounds";
import { parseCameras, parseImages } from "../colmap-model";
import { captureRasterCamera, pinholeIntrinsics, type PinholeIntrinsics } from "./capture-camera";
import type { RasterCamera } from "~/thumbnails/camera";
import type { Rgb } from "~/thumbnails/color";
import type { MeshScene } from "~/thumbnails/mesh-scene";
import { renderMesh } from "~/thumbnails/render-mesh";
import { renderSplats } from "~/thumbnails/render-splats";
import { downsample, toRgb8 } from "~/thumbnails/render-thumbnail.server";
import type { RenderedImage } from "~/thumbnails/rendered-image";
import type { SplatCloud } from "~/thumbnails/splat-cloud";
import { coverageShare, imageScores, type RgbImage } from "./image-quality";

/** Meshes are drawn at this many samples per pixel edge and averaged down (as thumbnails: edges without jaggies). */
const MESH_SUPERSAMPLING = 2;

export interface ModelScore {
  psnr: number;
  ssim: number;
  /** Share of the frame (0..1) the model covers at least half. */
  coverage: number;
}

export interface ViewScore {
  name: string;
  splat: ModelScore | null;
  mesh: ModelScore | null;
}

export interface DeliveredModel {
  splat: SplatCloud | null;
  mesh: MeshScene | null;
}

export interface ScoredView {
  score: ViewScore;
  /** The renders (8-bit RGB), for side-by-side pictures. */
  splat: Uint8Array | null;
  mesh: Uint8Array | null;
}

function score(render: RenderedImage, photo: RgbImage): ModelScore {
  const { psnr, ssim } = imageScores(render, photo);
  return { psnr, ssim, coverage: Math.round(coverageShare(render.alpha ?? new Float32Array(0)) * 1000) / 1000 };
}

/** Renders the delivered model from one capture camera and scores it against the (undistorted) photo. */
export function scoreView(model: DeliveredModel, view: { name: string; camera: RasterCamera; photo: RgbImage }, background: Rgb): ScoredView {
  const { camera, photo } = view;
  if (photo.width !== camera.width || photo.height !== camera.height) {
    throw new Error(`the photo ${view.name} is ${photo.width}×${photo.height}, its camera ${camera.width}×${camera.height}`);
  }
  let splat: RenderedImage | null = null;
  let mesh: RenderedImage | null = null;
  if (model.splat) splat = renderSplats(model.splat, camera, background);
  if (model.mesh) {
    const s = MESH_SUPERSAMPLING;
    const big: RasterCamera = { ...camera, width: camera.width * s, height: camera.height * s, fx: camera.fx * s, fy: camera.fy * s, cx: camera.cx * s, cy: camera.cy * s };
    mesh = downsample(renderMesh(model.mesh, big, background), s);
  }
  return {
    score: { name: view.name, splat: splat ? score(splat, photo) : null, mesh: mesh ? score(mesh, photo) : null },
    splat: splat ? toRgb8(splat) : null,
    mesh: mesh ? toRgb8(mesh) : null,
  };
}

/** Mean of each figure over the views that have it (null when none has). */
export function meanScore(scores: Array<ModelScore | null>): ModelScore | null {
  const present = scores.filter((s): s is ModelScore => s !== null && Number.isFinite(s.psnr));
  if (present.length === 0) return null;
  const mean = (pick: (s: ModelScore) => number, digits: number) => Math.round((present.reduce((sum, s) => sum + pick(s), 0) / present.length) * 10 ** digits) / 10 ** digits;
  return { psnr: mean((s) => s.psnr, 2), ssim: mean((s) => s.ssim, 3), coverage: mean((s) => s.coverage, 3) };
}

/** A PNG of the photo, the splat and the mesh side by side (what is missing is left out). */
export async function sideBySide(photo: RgbImage, renders: Array<Uint8Array | null>): Promise<Buffer> {
  const panels = [photo.rgb instanceof Uint8Array ? photo.rgb : toRgb8({ width: photo.width, height: photo.height, rgb: photo.rgb }), ...renders.filter((r): r is Uint8Array => r !== null)];
  const { width, height } = photo;
  const out = Buffer.alloc(width * panels.length * height * 3);
  panels.forEach((panel, k) => {
    for (let y = 0; y < height; y++) Buffer.from(panel.buffer, panel.byteOffset + y * width * 3, width * 3).copy(out, (y * width * panels.length + k * width) * 3);
  });
  return sharp(out, { raw: { width: width * panels.length, height, channels: 3 } }).png().toBuffer();
}

/** An image file as 8-bit RGB. */
export async function readPhoto(file: string): Promise<RgbImage> {
  const { data, info } = await sharp(file).removeAlpha().toColourspace("srgb").raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`${file} decoded to ${info.channels} channels`);
  return { width: info.width, height: info.height, rgb: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

/** The photos are undistorted to this long side and the model drawn at their size. */
export const EVALUATION_LONG_SIDE = 640;

/** The near plane the viewer would use for this model (a hundredth of its framing radius). */
function nearPlane(model: DeliveredModel): number {
  const bounds: Bounds | null = model.splat?.bounds ?? model.mesh?.bounds ?? null;
  return Math.max(1e-6, 0.01 * (bounds ? boundsRadius(bounds) : 1));
}

/**
 * An undistorted photo brought to at most EVALUATION_LONG_SIDE, its camera scaled with it (the pixel-centre
 * convention both COLMAP and the renderers use: u' = u · w'/w).
 */
async function workingSize(file: string, intrinsics: PinholeIntrinsics): Promise<{ photo: RgbImage; intrinsics: PinholeIntrinsics }> {
  const photo = await readPhoto(file);
  if (photo.width !== intrinsics.width || photo.height !== intrinsics.height) {
    throw new Error(`the undistorted photo ${path.basename(file)} is ${photo.width}×${photo.height}, its camera ${intrinsics.width}×${intrinsics.height}`);
  }
  const scale = EVALUATION_LONG_SIDE / Math.max(photo.width, photo.height);
  if (scale >= 1) return { photo, intrinsics };
  const width = Math.max(1, Math.round(photo.width * scale));
  const height = Math.max(1, Math.round(photo.height * scale));
  const sx = width / photo.width;
  const sy = height / photo.height;
  const { data } = await sharp(photo.rgb, { raw: { width: photo.width, height: photo.height, channels: 3 } }).resize(width, height, { fit: "fill" }).raw().toBuffer({ resolveWithObject: true });
  return {
    photo: { width, height, rgb: new Uint8Array(data.buffer, data.byteOffset, data.length) },
    intrinsics: { width, height, fx: intrinsics.fx * sx, fy: intrinsics.fy * sy, cx: intrinsics.cx * sx, cy: intrinsics.cy * sy },
  };
}

/**
 * Scores the delivered model from the capture cameras of `names`: COLMAP undistorts those photos with the scan's
 * own camera model to PINHOLE cameras (`image_undistorter --image_list_path`, at full size: with
 * `--max_image_size` COLMAP 3.8 scales the picture of a camera without distortion but not its camera), they are
 * brought to EVALUATION_LONG_SIDE, and each is compared with the model drawn from its camera. Views COLMAP did not
 * place are left out. With `pictures`, a photo | splat | mesh PNG of each view is written there.
 */
export async function evaluateViews(input: {
  /** The photos as captured (distorted), and the scan's sparse model (binary or text) of them. */
  images: string;
  sparse: string;
  names: string[];
  /** A scratch folder (emptied, then removed). */
  workDir: string;
  model: DeliveredModel;
  background: Rgb;
  colmap: (args: string[]) => Promise<void>;
  pictures?: string;
  progress?: (fraction: number) => void;
}): Promise<ViewScore[]> {
  const { workDir, model } = input;
  await rm(workDir, { recursive: true, force: true });
  await mkdir(path.join(workDir, "text"), { recursive: true });
  if (input.pictures) await mkdir(input.pictures, { recursive: true });
  const reference = path.join(workDir, "reference");
  await writeFile(path.join(workDir, "views.txt"), input.names.join("\n") + "\n");
  await input.colmap([
    "image_undistorter",
    "--image_path", input.images,
    "--input_path", input.sparse,
    "--output_path", reference,
    "--output_type", "COLMAP",
    "--image_list_path", path.join(workDir, "views.txt"),
  ]);
  await input.colmap(["model_converter", "--input_path", path.join(reference, "sparse"), "--output_path", path.join(workDir, "text"), "--output_type", "TXT"]);
  const cameras = new Map(parseCameras(await readFile(path.join(workDir, "text/cameras.txt"), "utf8")).map((c) => [c.id, c]));
  const images = new Map(parseImages(await readFile(path.join(workDir, "text/images.txt"), "utf8")).map((i) => [i.name, i]));
  input.progress?.(0.1);
  const near = nearPlane(model);
  const scores: ViewScore[] = [];
  for (const [i, name] of input.names.entries()) {
    const image = images.get(name);
    const camera = image && cameras.get(image.cameraId);
    const file = path.join(reference, "images", name);
    if (image && camera && existsSync(file)) {
      const { photo, intrinsics } = await workingSize(file, pinholeIntrinsics(camera));
      const raster = captureRasterCamera(intrinsics, image, near, near * 1e6);
      const scored = scoreView(model, { name, camera: raster, photo }, input.background);
      scores.push(scored.score);
      if (input.pictures) await writeFile(path.join(input.pictures, `${name.replace(/\.[^.]+$/, "")}.png`), await sideBySide(photo, [scored.splat, scored.mesh]));
    }
    input.progress?.(0.1 + (0.9 * (i + 1)) / input.names.length);
  }
  await rm(workDir, { recursive: true, force: true });
  return scores;
}
