import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { readPhoto, writeUprightPhoto } from "./upright-photo.server";

const dir = mkdtempSync(path.join(os.tmpdir(), "upright-photo-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What the viewer sees: red in the top-left quarter, blue elsewhere. */
async function scene(width: number, height: number) {
  const red = await sharp({ create: { width: width / 2, height: height / 2, channels: 3, background: "#ff0000" } }).png().toBuffer();
  return sharp({ create: { width, height, channels: 3, background: "#0000ff" } })
    .composite([{ input: red, left: 0, top: 0 }])
    .png()
    .toBuffer();
}

/** The scene as a phone stores it: pixels turned so that EXIF `orientation` turns them back. */
async function stored(width: number, height: number, orientation: number) {
  // Orientation 6 is shown turned 90° clockwise, 8 turned 90° anticlockwise, 3 turned half a turn.
  const turn = { 1: 0, 3: 180, 6: 270, 8: 90 }[orientation]!;
  const pixels = await sharp(await scene(width, height)).rotate(turn).toBuffer();
  return sharp(pixels)
    .jpeg({ quality: 95 })
    .withMetadata({ orientation })
    .withExif({ IFD0: { Make: "Scanroom", Model: "Test Phone" }, IFD2: { FocalLength: "4.2", FocalLengthIn35mmFilm: "28" } })
    .toBuffer();
}

async function pixel(file: string, x: number, y: number) {
  const { data, info } = await sharp(file).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at], data[at + 1], data[at + 2]];
}

describe("writeUprightPhoto", () => {
  for (const orientation of [6, 8, 3]) {
    it(`turns a photo stored with EXIF Orientation ${orientation} upright, and writes Orientation 1`, async () => {
      const bytes = await stored(64, 48, orientation);
      const photo = (await readPhoto(bytes))!;
      expect(photo.exif.orientation).toBe(orientation);
      const target = path.join(dir, `turned-${orientation}.jpg`);
      expect(await writeUprightPhoto({ bytes, photo, target, maxLongSide: 1600 })).toEqual({ width: 64, height: 48 });
      const written = await sharp(target).metadata();
      expect([written.width, written.height, written.orientation ?? 1]).toEqual([64, 48, 1]);
      // Read without applying any EXIF, as COLMAP and ffmpeg do: red at the top left, blue at the bottom right.
      const [r, , b] = await pixel(target, 8, 8);
      expect(r).toBeGreaterThan(200);
      expect(b).toBeLessThan(60);
      expect((await pixel(target, 56, 40))[2]).toBeGreaterThan(200);
    });
  }

  it("scales a large turned photo to the working size and keeps the EXIF focal length", async () => {
    const bytes = await stored(2400, 1800, 6);
    const photo = (await readPhoto(bytes))!;
    const target = path.join(dir, "large.jpg");
    expect(await writeUprightPhoto({ bytes, photo, target, maxLongSide: 1600 })).toEqual({ width: 1600, height: 1200 });
    expect(await readPhoto(readFileSync(target))).toEqual({
      width: 1600,
      height: 1200,
      exif: { orientation: 1, make: "Scanroom", model: "Test Phone", focalLength: 4.2, focalLengthIn35mmFilm: 28, focalPlane: null },
    });
  });
});

describe("readPhoto", () => {
  it("reads nothing from a file that is not a picture sharp decodes", async () => {
    expect(await readPhoto(Buffer.from("this is not a photo"))).toBeNull();
  });
});
