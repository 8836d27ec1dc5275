/**
 * First splats before the download ends (issue 6 "Streams"): a partial standard .ply or .splat is
 * cut at its last whole splat and, for .ply, given a header that announces that many. Trained 3DGS
 * files are not spatially ordered, so a prefix shows a thinned-out version of the whole model.
 * Compressed containers (.sog, .spz, .ksplat, compressed .ply) cannot be shown in part.
 */
import { plyRecordBytes, readPlyHeader } from "../formats/ply";
import type { ModelFormat } from "../formats/model-format";

/** Below this many complete splats a preview is not worth decoding. */
export const MIN_PREVIEW_SPLATS = 10_000;
const SPLAT_RECORD_BYTES = 32;

/** Whether files of `format` can be shown before they are complete. */
export function supportsPreview(format: ModelFormat): boolean {
  return format === "ply" || format === "splat";
}

/**
 * A self-contained file (a new buffer) holding the complete splats of `prefix` (the first bytes of
 * a file in `format`), and how many there are; null when there is nothing worth showing or the layout is not
 * the plain one we can cut (a single binary little-endian "vertex" element of scalar properties).
 */
export function previewFromPrefix(prefix: Uint8Array, format: ModelFormat, minSplats = MIN_PREVIEW_SPLATS): { bytes: Uint8Array; splats: number } | null {
  if (format === "splat") {
    const splats = Math.floor(prefix.length / SPLAT_RECORD_BYTES);
    // A copy: the decoder takes ownership of (transfers) the buffer it is given.
    return splats >= minSplats ? { bytes: prefix.slice(0, splats * SPLAT_RECORD_BYTES), splats } : null;
  }
  if (format !== "ply") return null;
  const header = readPlyHeader(prefix);
  if (!header || header.format !== "binary_little_endian" || header.version !== "1.0") return null;
  const [vertex, ...others] = header.elements;
  if (!vertex || others.length || vertex.name !== "vertex" || !Number.isInteger(vertex.count)) return null;
  const stride = plyRecordBytes(vertex);
  if (!stride) return null;
  const splats = Math.min(vertex.count, Math.floor((prefix.length - header.bodyOffset) / stride));
  if (splats < minSplats) return null;
  const text = header.text.replace(/^element vertex \d+$/m, `element vertex ${splats}`) + "end_header\n";
  const newHeader = new TextEncoder().encode(text);
  const bytes = new Uint8Array(newHeader.length + splats * stride);
  bytes.set(newHeader, 0);
  bytes.set(prefix.subarray(header.bodyOffset, header.bodyOffset + splats * stride), newHeader.length);
  return { bytes, splats };
}
