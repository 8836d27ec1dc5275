/**
 * The few EXIF fields a scan needs from a photo (issue 38): its orientation, and what COLMAP 3.8 reads to
 * start from the lens's focal length (Bitmap::ExifFocalLength: FocalLengthIn35mmFilm; else FocalLength with
 * the sensor width from its camera database by Make and Model, or from FocalPlaneXResolution,
 * FocalPlaneResolutionUnit and PixelXDimension). Pure: reads the TIFF structure of an EXIF block.
 */
export interface PhotoExif {
  /** EXIF Orientation, 1–8 (1, upright, when absent). */
  orientation: number;
  make: string | null;
  model: string | null;
  /** Focal length of the lens, in mm. */
  focalLength: number | null;
  /** Focal length in 35 mm film terms, in mm. */
  focalLengthIn35mmFilm: number | null;
  /** Pixels per FocalPlaneResolutionUnit on the sensor, and the image size they refer to. */
  focalPlane: {
    xResolution: number;
    yResolution: number | null;
    /** 2: inches, 3: cm (EXIF's codes). */
    unit: number;
    pixelXDimension: number | null;
    pixelYDimension: number | null;
  } | null;
}

const TAG = {
  make: 0x010f,
  model: 0x0110,
  orientation: 0x0112,
  exifIfd: 0x8769,
  focalLength: 0x920a,
  pixelXDimension: 0xa002,
  pixelYDimension: 0xa003,
  focalPlaneXResolution: 0xa20e,
  focalPlaneYResolution: 0xa20f,
  focalPlaneResolutionUnit: 0xa210,
  focalLengthIn35mmFilm: 0xa405,
} as const;

/** Bytes per component of each TIFF field type (1 BYTE … 12 DOUBLE). */
const TYPE_SIZE: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8 };

type Value = string | number;

/** An IFD's entries (tag → first value, or text), or null when the block is not a TIFF structure. */
function readIfd(view: DataView, little: boolean, offset: number): Map<number, Value> | null {
  if (offset + 2 > view.byteLength) return null;
  const entries = new Map<number, Value>();
  const count = view.getUint16(offset, little);
  for (let i = 0; i < count; i++) {
    const at = offset + 2 + i * 12;
    if (at + 12 > view.byteLength) break;
    const tag = view.getUint16(at, little);
    const type = view.getUint16(at + 2, little);
    const components = view.getUint32(at + 4, little);
    const size = (TYPE_SIZE[type] ?? 0) * components;
    if (size === 0) continue;
    const data = size <= 4 ? at + 8 : view.getUint32(at + 8, little);
    if (data + size > view.byteLength) continue;
    const value = readValue(view, little, type, data, components);
    if (value !== null) entries.set(tag, value);
  }
  return entries;
}

function readValue(view: DataView, little: boolean, type: number, at: number, components: number): Value | null {
  switch (type) {
    case 2: {
      let text = "";
      for (let i = 0; i < components; i++) {
        const code = view.getUint8(at + i);
        if (code === 0) break;
        text += String.fromCharCode(code);
      }
      return text.trim();
    }
    case 1:
      return view.getUint8(at);
    case 3:
      return view.getUint16(at, little);
    case 4:
      return view.getUint32(at, little);
    case 9:
      return view.getInt32(at, little);
    case 5: {
      const denominator = view.getUint32(at + 4, little);
      return denominator === 0 ? null : view.getUint32(at, little) / denominator;
    }
    case 10: {
      const denominator = view.getInt32(at + 4, little);
      return denominator === 0 ? null : view.getInt32(at, little) / denominator;
    }
    default:
      return null;
  }
}

const positive = (value: Value | undefined) => (typeof value === "number" && Number.isFinite(value) && value > 0 ? value : null);
const text = (value: Value | undefined) => (typeof value === "string" && value.length > 0 ? value : null);

/** No EXIF, or none that can be read: an upright photo with nothing known about its lens. */
export const NO_EXIF: PhotoExif = { orientation: 1, make: null, model: null, focalLength: null, focalLengthIn35mmFilm: null, focalPlane: null };

/**
 * Reads an EXIF block as sharp's `metadata().exif` gives it (a JPEG's APP1 payload: "Exif\0\0" and a
 * TIFF structure; the prefix may be absent). Anything unreadable reads as NO_EXIF's field.
 */
export function readPhotoExif(block: Uint8Array | undefined | null): PhotoExif {
  if (!block || block.length < 8) return NO_EXIF;
  let start = 0;
  if (block[0] === 0x45 && block[1] === 0x78 && block[2] === 0x69 && block[3] === 0x66) start = 6;
  const view = new DataView(block.buffer, block.byteOffset + start, block.byteLength - start);
  if (view.byteLength < 8) return NO_EXIF;
  const order = view.getUint16(0, false);
  if (order !== 0x4949 && order !== 0x4d4d) return NO_EXIF;
  const little = order === 0x4949;
  if (view.getUint16(2, little) !== 42) return NO_EXIF;
  const ifd0 = readIfd(view, little, view.getUint32(4, little));
  if (!ifd0) return NO_EXIF;
  const exifOffset = ifd0.get(TAG.exifIfd);
  const exif = (typeof exifOffset === "number" && readIfd(view, little, exifOffset)) || new Map<number, Value>();
  const orientation = ifd0.get(TAG.orientation);
  const xResolution = positive(exif.get(TAG.focalPlaneXResolution));
  const unit = positive(exif.get(TAG.focalPlaneResolutionUnit));
  return {
    orientation: typeof orientation === "number" && orientation >= 1 && orientation <= 8 ? orientation : 1,
    make: text(ifd0.get(TAG.make)),
    model: text(ifd0.get(TAG.model)),
    focalLength: positive(exif.get(TAG.focalLength)),
    focalLengthIn35mmFilm: positive(exif.get(TAG.focalLengthIn35mmFilm)),
    focalPlane:
      xResolution && unit
        ? {
            xResolution,
            yResolution: positive(exif.get(TAG.focalPlaneYResolution)),
            unit,
            pixelXDimension: positive(exif.get(TAG.pixelXDimension)),
            pixelYDimension: positive(exif.get(TAG.pixelYDimension)),
          }
        : null,
  };
}

/** The size a photo is seen at: orientations 5–8 turn it a quarter, swapping width and height. */
export function uprightSize(width: number, height: number, orientation: number): { width: number; height: number } {
  return orientation >= 5 && orientation <= 8 ? { width: height, height: width } : { width, height };
}

/** EXIF as sharp's `withExif` writes it: IFD0 is the main image's directory, IFD2 the Exif directory. */
export type ExifFields = { IFD0: Record<string, string>; IFD2: Record<string, string> };

/**
 * The EXIF to write on an upright (and maybe smaller) copy of a photo, so COLMAP starts from the same lens
 * as for the original: Make, Model and the focal lengths as they are; the focal plane's resolution scaled
 * with the image. COLMAP derives the sensor width as PixelXDimension ÷ FocalPlaneXResolution, and libvips
 * writes the copy's own width as PixelXDimension, so the resolution changes by the same factor as that
 * dimension to keep the sensor width (and the focal length in pixels, focal ÷ sensor width × long side,
 * scaled with the long side). `original` is the photo's stored pixel size, `copy` the copy's stored size.
 * No Orientation: the copy's pixels are upright.
 */
export function colmapExif(exif: PhotoExif, original: { width: number; height: number }, copy: { width: number; height: number }): ExifFields {
  const fields: ExifFields = { IFD0: {}, IFD2: {} };
  if (exif.make) fields.IFD0.Make = exif.make;
  if (exif.model) fields.IFD0.Model = exif.model;
  if (exif.focalLength) fields.IFD2.FocalLength = String(exif.focalLength);
  if (exif.focalLengthIn35mmFilm) fields.IFD2.FocalLengthIn35mmFilm = String(Math.round(exif.focalLengthIn35mmFilm));
  if (exif.focalPlane) {
    const plane = exif.focalPlane;
    fields.IFD2.FocalPlaneXResolution = String((plane.xResolution * copy.width) / (plane.pixelXDimension ?? original.width));
    if (plane.yResolution) fields.IFD2.FocalPlaneYResolution = String((plane.yResolution * copy.height) / (plane.pixelYDimension ?? original.height));
    fields.IFD2.FocalPlaneResolutionUnit = String(plane.unit);
  }
  return fields;
}
