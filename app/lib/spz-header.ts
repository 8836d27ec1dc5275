import { constants, gunzipSync } from "node:zlib";

// What is inside a gzip that claims to be .spz (issue 17 item 10): the gzip signature alone says
// nothing, so the decompressed header is read. SPZ v1–v3 (gzip) start with a 16-byte header:
// magic "NGSP", version (u32), point count (u32), SH degree (u8), fractional bits (u8), flags, reserved.
const SPZ_HEADER_BYTES = 16;
const MAX_SPZ_POINTS = 100_000_000;

/** Why the first bytes of a gzip .spz are not a gaussian splat; null when the header is sound. */
export function spzHeaderProblem(head: Uint8Array): string | null {
  let header: Buffer;
  try {
    // The head is a prefix of the stream: decompress what it holds, without requiring its end.
    header = gunzipSync(head, { finishFlush: constants.Z_SYNC_FLUSH });
  } catch {
    return "The .spz file is not a readable gzip stream.";
  }
  if (header.length < SPZ_HEADER_BYTES || header.toString("latin1", 0, 4) !== "NGSP") {
    return "The .spz file does not contain a gaussian splat (no SPZ header inside the gzip).";
  }
  const version = header.readUInt32LE(4);
  const points = header.readUInt32LE(8);
  const shDegree = header[12];
  if (version < 1 || version > 3) return `The .spz file has an unsupported version (${version}).`;
  if (points === 0 || points > MAX_SPZ_POINTS) return `The .spz file declares ${points} points.`;
  if (shDegree > 3) return `The .spz file declares spherical harmonics of degree ${shDegree} (at most 3).`;
  return null;
}
