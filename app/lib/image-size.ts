import { detectImageType } from "./image-rules";

/**
 * Pixel size of a JPEG, PNG, GIF or WebP image from its first bytes (oEmbed needs a thumbnail's width and
 * height). Null when the header is not there or not understood. JPEG needs the bytes up to its frame header,
 * which follows the EXIF block: read 64 KiB.
 */
export const IMAGE_SIZE_HEAD_BYTES = 64 * 1024;

export function readImageSize(bytes: Uint8Array): { width: number; height: number } | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const has = (n: number) => bytes.length >= n;
  const ascii = (start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));
  const size = (width: number, height: number) => (width > 0 && height > 0 ? { width, height } : null);
  switch (detectImageType(bytes)) {
    case "image/png":
      return has(24) && ascii(12, 16) === "IHDR" ? size(view.getUint32(16), view.getUint32(20)) : null;
    case "image/gif":
      return has(10) ? size(view.getUint16(6, true), view.getUint16(8, true)) : null;
    case "image/webp":
      return readWebpSize(bytes, view, ascii);
    case "image/jpeg":
      return readJpegSize(bytes, view);
    default:
      return null;
  }
}

function readWebpSize(bytes: Uint8Array, view: DataView, ascii: (start: number, end: number) => string) {
  if (bytes.length < 16) return null;
  const chunk = ascii(12, 16);
  const need = { "VP8 ": 30, VP8L: 25, VP8X: 30 }[chunk];
  if (need === undefined || bytes.length < need) return null;
  if (chunk === "VP8 ") return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  if (chunk === "VP8L") {
    const bits = view.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") {
    const uint24 = (at: number) => bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16);
    return { width: uint24(24) + 1, height: uint24(27) + 1 };
  }
  return null;
}

/** Walks the JPEG markers to the first start-of-frame (SOF0–SOF15 but DHT, JPG and DAC). */
function readJpegSize(bytes: Uint8Array, view: DataView) {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    const length = view.getUint16(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const height = view.getUint16(at + 5);
      const width = view.getUint16(at + 7);
      return width > 0 && height > 0 ? { width, height } : null;
    }
    at += 2 + length;
  }
  return null;
}
