/**
 * First splats before the download ends (issue 6 "Streams"): a partial standard .ply or .splat is
 * cut at its last whole splat and, for .ply, given a header that announces that many. Trained 3DGS
 * files are not spatially ordered, so a prefix shows a thinned-out version of the whole model.
 * Compressed containers (.sog, .spz, .ksplat, compressed .ply) cannot be shown in part.
 */
import { readPlyHeader, type ModelFormat } from "../lib/model-format";

/** Below this many complete splats a preview is not worth decoding. */
export const MIN_PREVIEW_SPLATS = 10_000;
const SPLAT_RECORD_BYTES = 32;

const PLY_PROPERTY_BYTES: Record<string, number> = { char: 1, uchar: 1, short: 2, ushort: 2, int: 4, uint: 4, float: 4, double: 8 };

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
  if (!header || !/^format binary_little_endian 1\.0$/m.test(header.text)) return null;
  const lines = header.text.split("\n");
  const elements = lines.filter((line) => line.startsWith("element "));
  if (elements.length !== 1 || !/^element vertex \d+$/.test(elements[0].trim())) return null;
  let stride = 0;
  for (const line of lines) {
    if (!line.startsWith("property ")) continue;
    const size = PLY_PROPERTY_BYTES[line.trim().split(/\s+/)[1]];
    if (!size) return null;
    stride += size;
  }
  const announced = Number(elements[0].trim().split(" ")[2]);
  const splats = Math.min(announced, Math.floor((prefix.length - header.length) / stride));
  if (stride === 0 || splats < minSplats) return null;
  const text = lines.map((line) => (line === elements[0] ? `element vertex ${splats}` : line)).join("\n") + "end_header\n";
  const newHeader = new TextEncoder().encode(text);
  const bytes = new Uint8Array(newHeader.length + splats * stride);
  bytes.set(newHeader, 0);
  bytes.set(prefix.subarray(header.length, header.length + splats * stride), newHeader.length);
  return { bytes, splats };
}
