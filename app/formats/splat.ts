// What is inside a file that claims to be .splat (issue 18 item 6). The format (antimatter15's WebGL
// splat viewer, also written by SuperSplat) has no header: it is a run of 32-byte records, each
//   position x, y, z (float32) · scale x, y, z (float32, linear) · colour r, g, b, alpha (uint8)
//   · rotation w, x, y, z (uint8, (q + 1) · 128).
// So the bytes are judged by their length and by a sample of records: a file of something else
// almost never holds finite, plausible positions and positive scales record after record.
export const SPLAT_RECORD_BYTES = 32;
/** Records read from the head (64 KiB of it holds 2,048). */
const SAMPLE_RECORDS = 2_048;
/** Scenes are metres to kilometres across; a coordinate beyond this is not a trained splat. */
const MAX_ABS_POSITION = 1e7;
/** A splat's linear scale (the record stores exp of the trained log scale). */
const MAX_SCALE = 1e6;

/**
 * Why a .splat of `size` bytes, whose first bytes are `head`, is not a gaussian splat; null when
 * its length is whole records and every sampled record is plausible.
 */
export function splatRecordsProblem(head: Uint8Array, size: number): string | null {
  if (size < SPLAT_RECORD_BYTES || size % SPLAT_RECORD_BYTES !== 0) {
    return `The .splat file's size (${size} bytes) is not a whole number of ${SPLAT_RECORD_BYTES}-byte splats.`;
  }
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const records = Math.min(SAMPLE_RECORDS, Math.floor(head.length / SPLAT_RECORD_BYTES), size / SPLAT_RECORD_BYTES);
  let visible = 0;
  for (let i = 0; i < records; i++) {
    const at = i * SPLAT_RECORD_BYTES;
    for (let axis = 0; axis < 3; axis++) {
      const position = view.getFloat32(at + axis * 4, true);
      if (!Number.isFinite(position) || Math.abs(position) > MAX_ABS_POSITION) {
        return `The .splat file's splat ${i + 1} has an impossible position; it is not a .splat model.`;
      }
      const scale = view.getFloat32(at + 12 + axis * 4, true);
      if (!Number.isFinite(scale) || scale < 0 || scale > MAX_SCALE) {
        return `The .splat file's splat ${i + 1} has an impossible scale; it is not a .splat model.`;
      }
    }
    const alpha = head[at + 27];
    const rotation = [28, 29, 30, 31].map((offset) => (head[at + offset] - 128) / 128);
    if (alpha > 0 && Math.hypot(...rotation) > 0) visible += 1;
  }
  if (visible === 0) return "The .splat file's splats are all transparent or without a rotation; it is not a .splat model.";
  return null;
}
