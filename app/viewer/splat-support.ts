/**
 * Splat files Spark 2.2 cannot decode, recognised up front so the user gets an actionable
 * message instead of a decoder error such as "Invalid gzip header".
 */
import type { ModelFormat } from "../formats/model-format";

/** Returns why `head` (the first bytes of a file detected as `format`) cannot be shown, or null. */
export function unsupportedSplatReason(head: Uint8Array, format: ModelFormat): string | null {
  if (format !== "spz") return null;
  // Spark reads SPZ v1–v3, which are gzip streams. SPZ v4 files start with a bare "NGSP" header.
  const isBareHeader = head.length >= 8 && head[0] === 0x4e && head[1] === 0x47 && head[2] === 0x53 && head[3] === 0x50;
  if (!isBareHeader) return null;
  const version = new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(4, true);
  return (
    `This .spz file uses SPZ version ${version}, which the viewer cannot read yet ` +
    "(supported: gzip-compressed SPZ v1–v3). Re-export it as SPZ v3, .ply or .ksplat."
  );
}
