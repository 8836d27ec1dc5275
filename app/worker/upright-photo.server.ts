import sharp from "sharp";
import { fitLongSide } from "./frame-selection";
import { colmapExif, readPhotoExif, uprightSize, type PhotoExif } from "./photo-exif";

/** A photo as sharp reads it: its stored pixel size and the EXIF a scan uses. */
export interface PhotoInfo {
  width: number;
  height: number;
  exif: PhotoExif;
}

/**
 * Reads a photo's size and EXIF from its header; null when sharp has no decoder for it (BMP, HEIC with
 * HEVC) or it is not an image. Bytes rather than a path: libvips caches decoded files by name.
 */
export async function readPhoto(bytes: Buffer): Promise<PhotoInfo | null> {
  try {
    const metadata = await sharp(bytes).metadata();
    if (!metadata.width || !metadata.height) return null;
    return { width: metadata.width, height: metadata.height, exif: readPhotoExif(metadata.exif) };
  } catch {
    return null;
  }
}

/**
 * Writes `photo` as a JPEG a scan can use as it is (COLMAP 3.8 ignores EXIF Orientation): the pixels
 * turned upright, scaled to a long side of at most `maxLongSide`, and the EXIF COLMAP reads for the
 * focal length kept (colmapExif). Throws when the pixels cannot be decoded. Returns the written size.
 */
export async function writeUprightPhoto(input: { bytes: Buffer; photo: PhotoInfo; target: string; maxLongSide: number }): Promise<{ width: number; height: number }> {
  const { bytes, photo, target, maxLongSide } = input;
  const upright = uprightSize(photo.width, photo.height, photo.exif.orientation);
  const size = fitLongSide(upright.width, upright.height, maxLongSide);
  let image = sharp(bytes, { failOn: "error" }).rotate();
  if (size.width !== upright.width || size.height !== upright.height) image = image.resize(size.width, size.height, { fit: "fill" });
  await image.jpeg({ quality: 95 }).withExif(colmapExif(photo.exif, photo, size)).toFile(target);
  return size;
}
