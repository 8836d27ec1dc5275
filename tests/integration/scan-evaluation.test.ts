// The scan's quality figure (issue 38): the delivered model is compared with the photo undistorted with the
// capture's own camera model. A perfect model (cat.glb itself) photographed through a lens with strong barrel
// distortion must score as high as through a lens without; a render moved by 2 px must score lower. COLMAP
// (image_undistorter, model_converter) runs for real.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { parseHexColor } from "~/thumbnails/color";
import { readGlbScene } from "~/thumbnails/read-glb.server";
import { readSplatCloud } from "~/thumbnails/read-splats.server";
import { renderMesh } from "~/thumbnails/render-mesh";
import { downsample, toRgb8 } from "~/thumbnails/render-thumbnail.server";
import type { MeshScene } from "~/thumbnails/mesh-scene";
import { boundsCenter, boundsRadius } from "~/viewer/bounds";
import { DEFAULT_BACKGROUND } from "~/viewer/background";
import { captureRasterCamera } from "~/worker/evaluation/capture-camera";
import { evaluateViews, readPhoto } from "~/worker/evaluation/delivered-quality.server";
import { psnr } from "~/worker/evaluation/image-quality";
import { SHARED_DATA } from "../setup/shared-data";

const run = promisify(execFile);
const NATIVE_BIN = process.env.SCANROOM_NATIVE_BIN ?? path.join(process.cwd(), "native/build/bin");
const COLMAP = process.env.COLMAP_BIN ?? "colmap";
const root = mkdtempSync(path.join(os.tmpdir(), "scanroom-evaluation-"));
const background = parseHexColor(DEFAULT_BACKGROUND);
/** The photos: larger than the evaluation's 640 px, as photos are, so that resampling them costs little. */
const WIDTH = 1280;
const HEIGHT = 960;
const FOCAL = 1120;
/** The principal point a little off centre, as calibrated lenses have it. */
const CX = 636.5;
const CY = 487.25;
/** Strong barrel distortion (the castle facade's compact camera had k = −0.157). */
const K = -0.15;

afterAll(() => rmSync(root, { recursive: true, force: true }));

type Vec3 = [number, number, number];
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: Vec3): Vec3 => {
  const l = Math.hypot(...a);
  return [a[0] / l, a[1] / l, a[2] / l];
};
const flip = (a: Vec3): Vec3 => [a[0], -a[1], -a[2]];

/** A COLMAP pose (scan frame: the viewer's frame turned by F = diag(1, −1, −1)) of a camera at `eye` looking at `target` (viewer frame, y up). */
function colmapPose(eye: Vec3, target: Vec3) {
  const e = flip(eye);
  const z = norm(sub(flip(target), e));
  const up = flip([0, 1, 0]);
  const y = norm(sub([0, 0, 0], sub(up, z.map((v) => v * (up[0] * z[0] + up[1] * z[1] + up[2] * z[2])) as Vec3)));
  const x = cross(y, z);
  const r = [...x, ...y, ...z];
  const t = [0, 1, 2].map((i) => -(r[i * 3] * e[0] + r[i * 3 + 1] * e[1] + r[i * 3 + 2] * e[2])) as Vec3;
  // Rotation matrix → unit quaternion (w, x, y, z).
  const trace = r[0] + r[4] + r[8];
  let q: [number, number, number, number];
  if (trace > 0) {
    const s = 0.5 / Math.sqrt(trace + 1);
    q = [0.25 / s, (r[7] - r[5]) * s, (r[2] - r[6]) * s, (r[3] - r[1]) * s];
  } else if (r[0] > r[4] && r[0] > r[8]) {
    const s = 2 * Math.sqrt(1 + r[0] - r[4] - r[8]);
    q = [(r[7] - r[5]) / s, 0.25 * s, (r[1] + r[3]) / s, (r[2] + r[6]) / s];
  } else if (r[4] > r[8]) {
    const s = 2 * Math.sqrt(1 + r[4] - r[0] - r[8]);
    q = [(r[2] - r[6]) / s, (r[1] + r[3]) / s, 0.25 * s, (r[5] + r[7]) / s];
  } else {
    const s = 2 * Math.sqrt(1 + r[8] - r[0] - r[4]);
    q = [(r[3] - r[1]) / s, (r[2] + r[6]) / s, (r[5] + r[7]) / s, 0.25 * s];
  }
  return { q, t };
}

/** The model drawn through a pinhole camera of focal FOCAL × `scale`, 2×2 supersampled, as 8-bit RGB. */
function pinholePhoto(scene: MeshScene, pose: ReturnType<typeof colmapPose>, size: { width: number; height: number; cx: number; cy: number }, near: number, scale = 1) {
  const s = 2;
  const camera = captureRasterCamera({ width: size.width * s, height: size.height * s, fx: FOCAL * scale * s, fy: FOCAL * scale * s, cx: size.cx * s, cy: size.cy * s }, pose, near, near * 1e6);
  const image = downsample(renderMesh(scene, camera, background), s);
  return toRgb8(image);
}

/**
 * The photo a SIMPLE_RADIAL lens (f, cx, cy, k) takes: each pixel averages 3×3 rays through it, each looking along
 * the undistorted ray that COLMAP's model maps onto it (x_d = x_u · (1 + k r_u²)), sampled bilinearly from a wider
 * pinhole photo drawn at `wideScale` times the size.
 */
function distortedPhoto(wide: Uint8Array, wideSize: { width: number; height: number; cx: number; cy: number }, wideScale: number, k: number): Uint8Array {
  const out = new Uint8Array(WIDTH * HEIGHT * 3);
  const at = (xx: number, yy: number, c: number) => wide[(Math.min(wideSize.height - 1, Math.max(0, yy)) * wideSize.width + Math.min(wideSize.width - 1, Math.max(0, xx))) * 3 + c];
  const sum = [0, 0, 0];
  for (let v = 0; v < HEIGHT; v++) {
    for (let u = 0; u < WIDTH; u++) {
      sum.fill(0);
      for (let sy = 0; sy < 3; sy++) {
        for (let sx = 0; sx < 3; sx++) {
          const xd = (u + (sx + 0.5) / 3 - CX) / FOCAL;
          const yd = (v + (sy + 0.5) / 3 - CY) / FOCAL;
          const rd = Math.hypot(xd, yd);
          let ru = rd;
          for (let i = 0; i < 20; i++) ru = rd / (1 + k * ru * ru);
          const scale = rd > 0 ? ru / rd : 1;
          const x = FOCAL * wideScale * xd * scale + wideSize.cx - 0.5;
          const y = FOCAL * wideScale * yd * scale + wideSize.cy - 0.5;
          const x0 = Math.floor(x), y0 = Math.floor(y);
          const fx = x - x0, fy = y - y0;
          for (let c = 0; c < 3; c++) sum[c] += (1 - fy) * ((1 - fx) * at(x0, y0, c) + fx * at(x0 + 1, y0, c)) + fy * ((1 - fx) * at(x0, y0 + 1, c) + fx * at(x0 + 1, y0 + 1, c));
        }
      }
      for (let c = 0; c < 3; c++) out[(v * WIDTH + u) * 3 + c] = Math.round(sum[c] / 9);
    }
  }
  return out;
}

/** A one-photo capture: the photo as the lens took it and a COLMAP text model of its SIMPLE_RADIAL camera and pose. */
async function capture(name: string, photo: Uint8Array, k: number, pose: ReturnType<typeof colmapPose>) {
  const dir = path.join(root, name);
  mkdirSync(path.join(dir, "images"), { recursive: true });
  mkdirSync(path.join(dir, "sparse"), { recursive: true });
  await sharp(photo, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).png().toFile(path.join(dir, "images/view.png"));
  writeFileSync(path.join(dir, "sparse/cameras.txt"), `1 SIMPLE_RADIAL ${WIDTH} ${HEIGHT} ${FOCAL} ${CX} ${CY} ${k}\n`);
  writeFileSync(path.join(dir, "sparse/images.txt"), `1 ${pose.q.join(" ")} ${pose.t.join(" ")} 1 view.png\n\n`);
  writeFileSync(path.join(dir, "sparse/points3D.txt"), "");
  return dir;
}

const colmap = async (args: string[]) => {
  await run(COLMAP, args, { env: { ...process.env, QT_QPA_PLATFORM: "offscreen" }, maxBuffer: 16 * 1024 * 1024 });
};

describe("the scan's quality figure", () => {
  it(
    "scores a perfect model as high through a strongly distorting lens as through a plain one, and a render 2 px off lower",
    async () => {
      const scene = await readGlbScene(new Uint8Array(readFileSync(path.join(SHARED_DATA, "models/cat.glb"))), { maxTextureSize: 4096 });
      const centre = boundsCenter(scene.bounds);
      const radius = boundsRadius(scene.bounds);
      const pose = colmapPose([centre[0] + 1.2 * radius, centre[1] + 0.6 * radius, centre[2] + 2.2 * radius], centre);
      const near = 0.01 * radius;
      // The wider pinhole photo the lens's picture is resampled from, at twice the size.
      const wideScale = 2;
      const wideSize = { width: Math.round(WIDTH * 1.5 * wideScale), height: Math.round(HEIGHT * 1.5 * wideScale), cx: (CX + 0.25 * WIDTH) * wideScale, cy: (CY + 0.25 * HEIGHT) * wideScale };
      const wide = pinholePhoto(scene, pose, wideSize, near, wideScale);
      const model = { splat: null, mesh: scene };

      const score = async (name: string, k: number) => {
        const straight = Math.abs(k) < 1e-4;
        const dir = await capture(name, straight ? pinholePhoto(scene, pose, { width: WIDTH, height: HEIGHT, cx: CX, cy: CY }, near) : distortedPhoto(wide, wideSize, wideScale, k), k, pose);
        const [view] = await evaluateViews({ images: path.join(dir, "images"), sparse: path.join(dir, "sparse"), names: ["view.png"], workDir: path.join(dir, "work"), model, background, colmap, pictures: path.join(dir, "pictures") });
        return { dir, view };
      };
      // A lens without distortion (COLMAP leaves its photo as it is), one with a trace of it (COLMAP resamples the
      // photo through the same interpolation as for the barrel lens, nothing else), and the barrel lens.
      const plain = await score("plain", 0);
      const trace = await score("trace", 1e-6);
      const barrel = await score("barrel", K);
      for (const scored of [plain, trace, barrel]) expect(scored.view.mesh).not.toBeNull();

      // What the evaluation did before issue 38: the original (distorted) photo stretched to the render's size.
      const side = await readPhoto(path.join(barrel.dir, "pictures/view.png"));
      const renderWidth = side.width / 2;
      const render = new Uint8Array(renderWidth * side.height * 3);
      for (let y = 0; y < side.height; y++) render.set(side.rgb.subarray((y * side.width + renderWidth) * 3, (y * side.width + 2 * renderWidth) * 3), y * renderWidth * 3);
      const stretched = await sharp(path.join(barrel.dir, "images/view.png")).resize(renderWidth, side.height, { fit: "fill" }).removeAlpha().raw().toBuffer();
      const before = psnr({ width: renderWidth, height: side.height, rgb: render }, { width: renderWidth, height: side.height, rgb: new Uint8Array(stretched) });

      const figures = (v: typeof plain) => `${v.view.mesh!.psnr} dB / SSIM ${v.view.mesh!.ssim}`;
      console.warn(
        `[evaluation] perfect model: plain lens ${figures(plain)}; k=1e-6 (resampled) ${figures(trace)}; barrel k=${K} ${figures(barrel)} ` +
          `(bound: within 1 dB of the resampled plain lens); the distorted photo stretched as before: ${before.toFixed(2)} dB`,
      );
      expect(plain.view.mesh!.psnr).toBeGreaterThan(40);
      expect(trace.view.mesh!.psnr).toBeGreaterThan(35);
      expect(barrel.view.mesh!.psnr).toBeGreaterThanOrEqual(trace.view.mesh!.psnr - 1);
      expect(barrel.view.mesh!.ssim).toBeGreaterThanOrEqual(trace.view.mesh!.ssim - 0.01);
      expect(before).toBeLessThan(barrel.view.mesh!.psnr - 10);

      // The same render moved by 2 px scores lower against the same reference photo.
      const reference = await readPhoto(path.join(barrel.dir, "pictures/view.png"));
      const photo = new Uint8Array(renderWidth * side.height * 3);
      for (let y = 0; y < side.height; y++) photo.set(reference.rgb.subarray(y * side.width * 3, (y * side.width + renderWidth) * 3), y * renderWidth * 3);
      const shifted = new Uint8Array(render.length);
      for (let y = 0; y < side.height; y++) {
        for (let x = 0; x < renderWidth; x++) {
          const from = Math.max(0, x - 2);
          shifted.set(render.subarray((y * renderWidth + from) * 3, (y * renderWidth + from) * 3 + 3), (y * renderWidth + x) * 3);
        }
      }
      const inPlace = psnr({ width: renderWidth, height: side.height, rgb: render }, { width: renderWidth, height: side.height, rgb: photo });
      const moved = psnr({ width: renderWidth, height: side.height, rgb: shifted }, { width: renderWidth, height: side.height, rgb: photo });
      console.warn(`[evaluation] the render in place ${inPlace.toFixed(2)} dB, moved 2 px ${moved.toFixed(2)} dB`);
      expect(inPlace).toBeCloseTo(barrel.view.mesh!.psnr, 0);
      expect(moved).toBeLessThan(inPlace - 2);
    },
    120_000,
  );

  it(
    "draws a splat with view-dependent colour (degree-3 spherical harmonics) as our trainer's rasteriser photographed it",
    async () => {
      // sr-train-scene's ground truth with random degree-3 harmonics, photographed by the trainer's own renderer
      // (native/train/raster.cpp) from a ring of cameras; the evaluation draws the same splat, read from its .ply,
      // with the software renderer the thumbnails use, from those cameras on that background.
      const dir = path.join(root, "harmonics");
      const truth = path.join(dir, "truth.ply");
      const frames = 6;
      await run(path.join(NATIVE_BIN, "sr-train-scene"), [
        ...["--output", dir, "--frames", String(frames), "--width", "240", "--height", "180"],
        ...["--gaussians", "6000", "--init-points", "1", "--floaters", "0", "--sh-degree", "3", "--sh-amplitude", "0.15", "--truth", truth],
      ]);
      const splat = await readSplatCloud(new Uint8Array(readFileSync(truth)), "ply");
      expect(splat.harmonics?.degree).toBe(3);
      const names = Array.from({ length: frames }, (_, k) => `frame_${String(k + 1).padStart(4, "0")}.png`);
      const sceneBackground: [number, number, number] = [0.08, 0.09, 0.12]; // sr-train-scene's
      const scores = async (model: typeof splat, work: string) =>
        (await evaluateViews({ images: path.join(dir, "images"), sparse: path.join(dir, "sparse"), names, workDir: path.join(dir, work), model: { splat: model, mesh: null }, background: sceneBackground, colmap }))
          .map((view) => view.splat!.psnr);
      const withHarmonics = await scores(splat, "with");
      const baseOnly = await scores({ ...splat, harmonics: undefined }, "without");
      console.warn(
        `[evaluation] a degree-3 splat against the trainer's photos of it, ${frames} views: ${withHarmonics.join(", ")} dB ` +
          `(bound ≥ 40 dB); drawn with its base colours only: ${baseOnly.join(", ")} dB`,
      );
      expect(withHarmonics).toHaveLength(frames);
      for (const [k, value] of withHarmonics.entries()) {
        expect(value).toBeGreaterThanOrEqual(40);
        // The view-dependent colour is what makes the difference: without it the same views score far lower.
        expect(baseOnly[k]).toBeLessThan(value - 5);
      }
    },
    120_000,
  );
});
