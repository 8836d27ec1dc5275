import { constants, gunzipSync } from "node:zlib";

// What is inside a file that claims to be .spz (issue 17 item 10, issue 18 item 6): the signature
// alone says nothing, so the header is read. Every SPZ version starts with the same 16-byte header:
// magic "NGSP", version (u32), point count (u32), SH degree (u8), fractional bits (u8), flags, reserved.
// Versions 1–3 are gzip streams with the header at the start of the decompressed bytes; version 4
// (what splat-transform writes by default) starts with it in plain bytes.
const SPZ_HEADER_BYTES = 16;
const MAX_SPZ_POINTS = 100_000_000;

function isGzip(head: Uint8Array): boolean {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

/** Why the first bytes of a .spz are not a gaussian splat; null when the header is sound. */
export function spzHeaderProblem(head: Uint8Array): string | null {
  let header: Buffer;
  const gzip = isGzip(head);
  if (gzip) {
    try {
      // The head is a prefix of the stream: decompress what it holds, without requiring its end.
      header = gunzipSync(head, { finishFlush: constants.Z_SYNC_FLUSH });
    } catch {
      return "The .spz file is not a readable gzip stream.";
    }
  } else {
    header = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
    if (header.length < 4 || header.toString("latin1", 0, 4) !== "NGSP") {
      return "The .spz file is neither a gzip stream (SPZ 1–3) nor an SPZ 4 file (no NGSP header).";
    }
  }
  if (header.length < SPZ_HEADER_BYTES || header.toString("latin1", 0, 4) !== "NGSP") {
    return "The .spz file does not contain a gaussian splat (no SPZ header inside the gzip).";
  }
  const version = header.readUInt32LE(4);
  const points = header.readUInt32LE(8);
  const shDegree = header[12];
  if (gzip ? version < 1 || version > 3 : version !== 4) {
    return `The .spz file has an unsupported version (${version}${gzip ? " inside a gzip stream" : ""}).`;
  }
  if (points === 0 || points > MAX_SPZ_POINTS) return `The .spz file declares ${points} points.`;
  if (shDegree > 3) return `The .spz file declares spherical harmonics of degree ${shDegree} (at most 3).`;
  return null;
}
