import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { colmapExif, NO_EXIF, readPhotoExif, uprightSize, type PhotoExif } from "./photo-exif";

/**
 * A big-endian ("MM", as iPhones write it) TIFF block: IFD0 with Make, Model, Orientation and the Exif
 * pointer; the Exif IFD with FocalLength 4.25 mm (17/4) and FocalLengthIn35mmFilm 26.
 */
function bigEndianExif(orientation: number): Uint8Array {
  const bytes = new Uint8Array(200);
  const view = new DataView(bytes.buffer);
  bytes.set([0x4d, 0x4d], 0);
  view.setUint16(2, 42);
  view.setUint32(4, 8);
  const entry = (at: number, tag: number, type: number, count: number, value: number, short = false) => {
    view.setUint16(at, tag);
    view.setUint16(at + 2, type);
    view.setUint32(at + 4, count);
    if (short) view.setUint16(at + 8, value);
    else view.setUint32(at + 8, value);
  };
  // IFD0 at 8: 4 entries, then 4 bytes of next-IFD offset: ends at 8 + 2 + 48 + 4 = 62.
  view.setUint16(8, 4);
  entry(10, 0x010f, 2, 6, 100); // Make → "Apple\0" at 100
  entry(22, 0x0110, 2, 10, 110); // Model → "iPhone 15\0" at 110
  entry(34, 0x0112, 3, 1, orientation, true);
  entry(46, 0x8769, 4, 1, 130); // Exif IFD at 130
  bytes.set(new TextEncoder().encode("Apple\0"), 100);
  bytes.set(new TextEncoder().encode("iPhone 15\0"), 110);
  view.setUint16(130, 2);
  entry(132, 0x920a, 5, 1, 170); // FocalLength → rational at 170
  entry(144, 0xa405, 3, 1, 26, true);
  view.setUint32(170, 17);
  view.setUint32(174, 4);
  return bytes;
}

describe("readPhotoExif", () => {
  it("reads a big-endian block as phones write it", () => {
    expect(readPhotoExif(bigEndianExif(6))).toEqual({
      orientation: 6,
      make: "Apple",
      model: "iPhone 15",
      focalLength: 4.25,
      focalLengthIn35mmFilm: 26,
      focalPlane: null,
    });
  });

  it("reads the block sharp gives for a JPEG written by libvips (little-endian, with the Exif\\0\\0 prefix)", async () => {
    const jpeg = await sharp({ create: { width: 32, height: 24, channels: 3, background: "#808080" } })
      .jpeg()
      .withMetadata({ orientation: 8 })
      .withExif({
        IFD0: { Make: "Scanroom", Model: "Render Cam" },
        IFD2: { FocalLength: "4.2", FocalLengthIn35mmFilm: "28", FocalPlaneXResolution: "500", FocalPlaneYResolution: "250", FocalPlaneResolutionUnit: "3" },
      })
      .toBuffer();
    const { exif } = await sharp(jpeg).metadata();
    expect(readPhotoExif(exif)).toEqual({
      orientation: 8,
      make: "Scanroom",
      model: "Render Cam",
      focalLength: 4.2,
      focalLengthIn35mmFilm: 28,
      // libvips writes the image's own size as PixelX/YDimension.
      focalPlane: { xResolution: 500, yResolution: 250, unit: 3, pixelXDimension: 32, pixelYDimension: 24 },
    });
  });

  it("reads a photo without EXIF, or with a broken block, as upright with no lens known", () => {
    expect(readPhotoExif(undefined)).toEqual(NO_EXIF);
    expect(readPhotoExif(new TextEncoder().encode("Exif\0\0not a tiff block"))).toEqual(NO_EXIF);
    const truncated = bigEndianExif(3).subarray(0, 60);
    expect(readPhotoExif(truncated)).toMatchObject({ orientation: 3, make: null, focalLength: null });
  });
});

describe("uprightSize", () => {
  it("swaps width and height for the quarter turns (5–8) only", () => {
    expect(uprightSize(4032, 3024, 6)).toEqual({ width: 3024, height: 4032 });
    expect(uprightSize(4032, 3024, 8)).toEqual({ width: 3024, height: 4032 });
    expect(uprightSize(4032, 3024, 3)).toEqual({ width: 4032, height: 3024 });
    expect(uprightSize(4032, 3024, 1)).toEqual({ width: 4032, height: 3024 });
  });
});

describe("colmapExif", () => {
  const phone: PhotoExif = {
    orientation: 6,
    make: "Apple",
    model: "iPhone 15",
    focalLength: 6.86,
    focalLengthIn35mmFilm: 24,
    focalPlane: { xResolution: 500, yResolution: 500, unit: 3, pixelXDimension: 4032, pixelYDimension: 3024 },
  };

  it("keeps what COLMAP reads for the focal length, and no orientation", () => {
    const fields = colmapExif(phone, { width: 4032, height: 3024 }, { width: 1200, height: 1600 });
    expect(fields.IFD0).toEqual({ Make: "Apple", Model: "iPhone 15" });
    expect(fields.IFD2).toMatchObject({ FocalLength: "6.86", FocalLengthIn35mmFilm: "24", FocalPlaneResolutionUnit: "3" });
    expect(JSON.stringify(fields)).not.toMatch(/Orientation/);
  });

  it("keeps the sensor width COLMAP derives (PixelXDimension ÷ FocalPlaneXResolution) when the copy is turned and scaled", () => {
    // 4032×3024 stored landscape, written upright (portrait) at a long side of 1600: 1200×1600.
    const fields = colmapExif(phone, { width: 4032, height: 3024 }, { width: 1200, height: 1600 });
    const sensorWidthCm = 4032 / 500;
    // libvips writes the copy's width (1200) as its PixelXDimension.
    expect(1200 / Number(fields.IFD2.FocalPlaneXResolution)).toBeCloseTo(sensorWidthCm, 9);
    // COLMAP's focal in pixels, focal ÷ sensor width × long side, scales with the long side: 1600 / 4032.
    const focalPixels = (long: number, resolution: number, pixelX: number) => (6.86 / ((pixelX / resolution) * 10)) * long;
    expect(focalPixels(1600, Number(fields.IFD2.FocalPlaneXResolution), 1200)).toBeCloseTo((focalPixels(4032, 500, 4032) * 1600) / 4032, 6);
  });

  it("writes nothing for a photo without EXIF", () => {
    expect(colmapExif(NO_EXIF, { width: 640, height: 480 }, { width: 640, height: 480 })).toEqual({ IFD0: {}, IFD2: {} });
  });
});
