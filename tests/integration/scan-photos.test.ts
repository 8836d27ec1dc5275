import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { mkdir, readdir, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import type { FeaturesResult, MappingResult } from "~/worker/stages/colmap.server";
import type { FramesResult } from "~/worker/stages/input.server";
import type { StageName } from "~/domain/scan-progress";
import { readColmapCameras } from "../setup/colmap-database";
import { phonePhotoSet } from "../setup/scan-media";
import { alignSimilarity } from "../setup/similarity";

/**
 * Photos as phones make them (issue 38 item 6): portrait and upside-down shots stored turned with an EXIF
 * Orientation, photos past the working size, EXIF focal lengths. The pipeline's stages run here directly,
 * from ingest to mapping (no database, no server: storage is this file's local folder), on 20 renders of
 * cat.glb at 640×480 from known cameras (tests/setup/scan-media.ts, phonePhotoSet).
 */
const WORK_DIR = mkdtempSync(path.join(os.tmpdir(), "scanroom-scan-photos-"));
afterAll(() => rmSync(WORK_DIR, { recursive: true, force: true }));

/** Uploads `files` as an image set and runs the pipeline's stages on it in order, up to `last`. */
/** Runs the pipeline's stages up to `last` (and no further when the quality gate stops it) on photos put in storage. */
async function runPhotoStages(files: Array<{ name: string; bytes: Uint8Array }>, last: StageName) {
  const { storage } = await import("~/storage/index.server");
  const { parseWorkerConfig } = await import("~/env.server");
  const { jobDir, runStages } = await import("~/worker/pipeline.server");
  const itemId = randomUUID();
  for (const file of files) await storage().write(`items/${itemId}/images/${file.name}`, file.bytes);
  const job = { id: randomUUID(), itemId, inputKind: "image" as const, inputPath: `items/${itemId}/images/`, duration: null, attempt: 1 };
  const config = parseWorkerConfig({ ...process.env, SCAN_WORK_DIR: WORK_DIR });
  const outcome = await runStages({ job, config, signal: new AbortController().signal, reporter: { stage: () => undefined, progress: () => undefined }, until: last });
  const seconds = Object.fromEntries(Object.entries(outcome.timings).map(([name, timing]) => [name, timing!.seconds]));
  return { dir: jobDir(config, job.id), results: outcome.results, seconds };
}

/** The mapper's largest model (mapped/<n>, COLMAP's binary format), read through its text export. */
async function largestModel(dir: string) {
  const { parseModel } = await import("~/worker/colmap-model");
  const { runTool } = await import("~/tools/run-tool.server");
  let largest: ReturnType<typeof parseModel> | null = null;
  for (const name of await readdir(path.join(dir, "mapped"))) {
    const text = path.join(dir, `mapped-text-${name}`);
    await mkdir(text, { recursive: true });
    await runTool({ command: "colmap", args: ["model_converter", "--input_path", path.join(dir, "mapped", name), "--output_path", text, "--output_type", "TXT"] });
    const read = (file: string) => readFile(path.join(text, file), "utf8");
    const model = parseModel({ cameras: await read("cameras.txt"), images: await read("images.txt"), points3D: await read("points3D.txt") });
    if (!largest || model.images.length > largest.images.length) largest = model;
  }
  if (!largest) throw new Error("the mapper made no model");
  return largest;
}

/** Mean absolute difference (0–255) of two pictures' stored pixels, as 32×24 grey thumbnails; no EXIF applied. */
async function pictureDifference(a: string | Buffer, b: string | Buffer) {
  const grey = (input: string | Buffer) => sharp(input).resize(32, 24, { fit: "fill" }).greyscale().raw().toBuffer();
  const [x, y] = await Promise.all([grey(a), grey(b)]);
  return x.reduce((sum, value, i) => sum + Math.abs(value - y[i]), 0) / x.length;
}

describe("a phone's photo set", () => {
  it(
    "turned and large photos become upright frames of the working size, keep their EXIF focal length, get a camera per size, and place every camera where the renderer put it",
    async () => {
      const set = await phonePhotoSet();
      const turned = set.photos.filter((p) => p.orientation !== 1).length;
      const large = set.photos.filter((p) => p.large);
      console.warn(
        `[scan-photos] ${set.photos.length} photos: ${turned} stored turned (Orientation ${[...new Set(set.photos.map((p) => p.orientation))].sort().join("/")}), ${large.length} of ${large[0].display.width}×${large[0].display.height} to scale; EXIF FocalLengthIn35mmFilm ${set.exif.focalLengthIn35mmFilm}`,
      );
      const { dir, results, seconds } = await runPhotoStages(
        set.photos.map((p) => ({ name: path.basename(p.file), bytes: readFileSync(p.file) })),
        "mapping",
      );
      console.warn(`[scan-photos] stage seconds: ${JSON.stringify(seconds)}`);
      const frames = results.frames as FramesResult;
      expect(frames.frames).toEqual(set.photos.map((p) => path.basename(p.file)));

      // Every frame is upright as stored (COLMAP 3.8 and ffmpeg's thumbnails ignore EXIF Orientation):
      // its pixels have the photo's display size, scaled to a long side of 1600, and look like the render.
      const differences: number[] = [];
      for (const photo of set.photos) {
        const frame = path.join(dir, "images", path.basename(photo.file));
        const metadata = await sharp(frame).metadata();
        const scale = Math.min(1, 1600 / Math.max(photo.display.width, photo.display.height));
        expect({ frame: path.basename(frame), width: metadata.width, height: metadata.height, orientation: metadata.orientation ?? 1 }).toEqual({
          frame: path.basename(frame),
          width: Math.round(photo.display.width * scale),
          height: Math.round(photo.display.height * scale),
          orientation: 1,
        });
        differences.push(await pictureDifference(frame, photo.render));
      }
      const upsideDown = await pictureDifference(await sharp(set.photos[0].render).rotate(180).toBuffer(), set.photos[0].render);
      console.warn(
        `[scan-photos] frames against their renders: mean grey difference at most ${Math.max(...differences).toFixed(2)} of 255 (the first render against itself upside down: ${upsideDown.toFixed(2)})`,
      );
      for (const difference of differences) expect(difference).toBeLessThan(6);

      // The focal length COLMAP starts from comes from EXIF (prior_focal_length = 1 in its database), also for
      // the scaled photos: FocalLengthIn35mmFilm / 35 × the long side, as COLMAP 3.8 computes it.
      const features = results.features as FeaturesResult;
      const cameras = readColmapCameras(path.join(dir, "features.db")).sort((a, b) => a.width - b.width);
      // The renderer's focal length in pixels, for a frame of long side `long`.
      const render = set.cameras[0];
      const trueFocal = (long: number) => ((long / Math.max(render.width, render.height)) * (render.height / 2)) / Math.tan((render.fovDeg * Math.PI) / 360);
      for (const camera of cameras) {
        console.warn(
          `[scan-photos] camera ${camera.width}×${camera.height}: focal ${camera.params[0].toFixed(2)} px, prior from EXIF ${camera.priorFocalLength} (expected ${set.exif.focalLengthIn35mmFilm}/35 × ${Math.max(camera.width, camera.height)} = ${((set.exif.focalLengthIn35mmFilm / 35) * Math.max(camera.width, camera.height)).toFixed(2)}; the renderer's ${trueFocal(Math.max(camera.width, camera.height)).toFixed(2)})`,
        );
      }
      expect(features.cameraGroups).toBe(2);
      expect(cameras.map((c) => ({ width: c.width, height: c.height, prior: c.priorFocalLength }))).toEqual([
        { width: 640, height: 480, prior: 1 },
        { width: 1600, height: 1200, prior: 1 },
      ]);
      for (const camera of cameras) expect(camera.params[0]).toBeCloseTo((set.exif.focalLengthIn35mmFilm / 35) * Math.max(camera.width, camera.height), 2);

      // One scene: the cameras of every kind of photo in one model, where the renderer put them.
      const mapping = results.mapping as MappingResult;
      console.warn(`[scan-photos] mapping: ${mapping.registered}/${mapping.total} registered in the largest of ${mapping.models} models, mean reprojection error ${mapping.meanReprojectionError} px, ${mapping.points} points`);
      expect(mapping.registered / mapping.total).toBeGreaterThanOrEqual(0.9);
      expect(mapping.meanReprojectionError).toBeGreaterThan(0);
      expect(mapping.meanReprojectionError).toBeLessThanOrEqual(1.5);
      // The largest model as text (mapping keeps sparse-txt/ only past the quality gate, whose 2,000 points
      // 20 small renders need not reach).
      const { cameraCenter } = await import("~/worker/colmap-model");
      const model = await largestModel(dir);
      const recovered = model.images;
      const truth = new Map(set.cameras.map((c) => [c.file, c.position]));
      const alignment = alignSimilarity(recovered.map(cameraCenter), recovered.map((image) => truth.get(image.name)!));
      const placed = new Set(recovered.map((image) => image.name));
      const placedOf = (photos: typeof set.photos) => photos.filter((p) => placed.has(path.basename(p.file))).length;
      console.warn(
        `[scan-photos] camera centres after similarity alignment: RMSE ${alignment.rmse.toFixed(4)}, max ${alignment.maxError.toFixed(4)} (orbit radius 2.2); placed ${placedOf(set.photos.filter((p) => p.orientation !== 1))}/${turned} turned, ${placedOf(large)}/${large.length} large`,
      );
      expect(alignment.rmse).toBeLessThan(0.05);
      // Each camera's focal length, refined by the mapper from its own photos, is the renderer's.
      const refined = model.cameras.map((c) => ({ size: `${c.width}×${c.height}`, focal: c.params[0], truth: trueFocal(Math.max(c.width, c.height)) }));
      console.warn(`[scan-photos] refined focal lengths: ${refined.map((c) => `${c.size} ${c.focal.toFixed(1)} px (renderer ${c.truth.toFixed(1)})`).join(", ")}`);
      for (const camera of refined) expect(Math.abs(camera.focal - camera.truth) / camera.truth).toBeLessThan(0.02);
    },
    900_000,
  );

  it("a BMP photo, which sharp cannot decode, becomes a PNG frame by ffmpeg", async () => {
    const set = await phonePhotoSet();
    const { runTool } = await import("~/tools/run-tool.server");
    const bmp = path.join(WORK_DIR, "image-004.bmp");
    await runTool({ command: "ffmpeg", args: ["-hide_banner", "-loglevel", "error", "-y", "-i", set.photos[3].render, bmp] });
    const files = set.photos.map((p) => ({ name: path.basename(p.file), bytes: new Uint8Array(readFileSync(p.file)) }));
    files[3] = { name: "image-004.bmp", bytes: new Uint8Array(readFileSync(bmp)) };
    const { dir, results } = await runPhotoStages(files, "frames");
    expect((results.frames as FramesResult).frames[3]).toBe("image-004.png");
    const metadata = await sharp(path.join(dir, "images/image-004.png")).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(["png", 640, 480]);
    expect(await pictureDifference(path.join(dir, "images/image-004.png"), set.photos[3].render)).toBeLessThan(6);
  }, 120_000);

  it("a photo that cannot be read stops the scan with a message naming it", async () => {
    const set = await phonePhotoSet();
    const files = set.photos.map((p) => ({ name: path.basename(p.file), bytes: new Uint8Array(readFileSync(p.file)) }));
    files[6] = { name: files[6].name, bytes: new TextEncoder().encode("not a photo: a text file renamed to .jpg") };
    const { ScanFailure } = await import("~/worker/stage");
    const run = runPhotoStages(files, "frames");
    await expect(run).rejects.toBeInstanceOf(ScanFailure);
    await expect(run).rejects.toThrow("image-007.jpg could not be read. Export the photos as JPEG and upload them again.");
  }, 120_000);
});
