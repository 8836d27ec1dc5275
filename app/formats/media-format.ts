/**
 * Scan-input detection by magic bytes, shared by the Upload dialog (which reads each file's first
 * bytes before uploading) and the server (which reads them again from the stored files). The
 * extension never decides: a text file renamed .jpg is not an image.
 */
export const IMAGE_FORMATS = ["jpeg", "png", "webp", "heic", "tiff", "bmp"] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** Containers a scan accepts, named as ffmpeg's demuxers: mov (MP4/MOV/M4V), matroska (MKV/WebM), avi. */
export const VIDEO_CONTAINERS = ["mov", "matroska", "avi"] as const;
export type VideoContainer = (typeof VIDEO_CONTAINERS)[number];

/** Bytes to read from the start of a file for detection. */
export const MAGIC_BYTES = 32;

const ascii = (bytes: Uint8Array, start: number, length: number) =>
  bytes.length < start + length ? "" : String.fromCharCode(...bytes.subarray(start, start + length));

const startsWith = (bytes: Uint8Array, signature: number[]) =>
  bytes.length >= signature.length && signature.every((byte, i) => bytes[i] === byte);

// ISO-BMFF brands of HEIF/HEIC/AVIF still images; other `ftyp` brands are video (mp4, mov, 3gp…).
const HEIF_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs", "mif1", "msf1", "avif", "avis"]);

function ftypBrand(bytes: Uint8Array): string | null {
  return ascii(bytes, 4, 4) === "ftyp" ? ascii(bytes, 8, 4) : null;
}

export function detectImageFormat(head: Uint8Array): ImageFormat | null {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (ascii(head, 0, 4) === "RIFF" && ascii(head, 8, 4) === "WEBP") return "webp";
  const brand = ftypBrand(head);
  if (brand && HEIF_BRANDS.has(brand)) return "heic";
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a])) return "tiff";
  if (ascii(head, 0, 2) === "BM" && head.length >= 14) return "bmp";
  return null;
}

// QuickTime files without an `ftyp` box start with one of these top-level atoms.
const QUICKTIME_ATOMS = new Set(["moov", "mdat", "wide", "free", "skip", "pnot"]);

export function detectVideoContainer(head: Uint8Array): VideoContainer | null {
  const brand = ftypBrand(head);
  if (brand) return HEIF_BRANDS.has(brand) ? null : "mov";
  if (QUICKTIME_ATOMS.has(ascii(head, 4, 4))) return "mov";
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) return "matroska";
  if (ascii(head, 0, 4) === "RIFF" && ascii(head, 8, 4) === "AVI ") return "avi";
  return null;
}
