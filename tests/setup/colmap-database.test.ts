import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { readColmapCameras } from "./colmap-database";

const dir = mkdtempSync(path.join(os.tmpdir(), "colmap-database-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("readColmapCameras", () => {
  it("reads the cameras COLMAP's feature extractor wrote, with the focal length it printed and whether EXIF gave it", async () => {
    mkdirSync(path.join(dir, "images"));
    const grey = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: "#808080" } }).jpeg();
    await grey(640, 480).withExif({ IFD0: { Make: "Scanroom", Model: "Render Cam" }, IFD2: { FocalLengthIn35mmFilm: "28" } }).toFile(path.join(dir, "images/a.jpg"));
    await grey(320, 240).toFile(path.join(dir, "images/b.jpg"));
    const database = path.join(dir, "features.db");
    const log = execFileSync(
      "colmap",
      ["feature_extractor", "--database_path", database, "--image_path", path.join(dir, "images"), "--ImageReader.camera_model", "SIMPLE_RADIAL", "--SiftExtraction.use_gpu", "0", "--SiftExtraction.num_threads", "1"],
      { encoding: "utf8" },
    );
    // COLMAP 3.8 prints each image's focal length, "(Prior)" when EXIF gave it: 28 / 35 × 640 and 1.2 × 320.
    expect(log).toMatch(/Name:\s+a\.jpg[\s\S]*?Focal Length:\s+512\.00px \(Prior\)/);
    expect(log).toMatch(/Name:\s+b\.jpg[\s\S]*?Focal Length:\s+384\.00px\n/);
    const cameras = readColmapCameras(database).sort((a, b) => b.width - a.width);
    expect(cameras).toEqual([
      { cameraId: expect.any(Number), model: 2, width: 640, height: 480, params: [512, 320, 240, 0], priorFocalLength: 1 },
      { cameraId: expect.any(Number), model: 2, width: 320, height: 240, params: [384, 160, 120, 0], priorFocalLength: 0 },
    ]);
  });
});
