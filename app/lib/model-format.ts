/**
 * Model format detection shared by the browser viewer and the server's upload checks.
 * Magic bytes decide first; the file extension only breaks ties for formats without a header (.splat).
 */
export const MODEL_FORMATS = [
  "glb",
  "gltf",
  "ply",
  "compressed-ply",
  "ksplat",
  "spz",
  "splat",
  "sog",
] as const;
export type ModelFormat = (typeof MODEL_FORMATS)[number];

/** The three model types SPEC §3 lets a client declare on an item. */
export const DECLARED_MODEL_TYPES = ["glb", "ply", "ksplat"] as const;
export type DeclaredModelType = (typeof DECLARED_MODEL_TYPES)[number];

const ascii = (bytes: Uint8Array, start: number, length: number) =>
  String.fromCharCode(...bytes.subarray(start, start + length));

function readU32(bytes: Uint8Array, offset: number): number {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(offset, true);
}

/** Parses the ASCII header of a PLY file; null when the bytes are not a PLY header. */
export function readPlyHeader(bytes: Uint8Array): { text: string; length: number } | null {
  if (bytes.length < 4 || ascii(bytes, 0, 4) !== "ply\n") return null;
  const limit = Math.min(bytes.length, 64 * 1024);
  const text = new TextDecoder().decode(bytes.subarray(0, limit));
  const end = text.indexOf("end_header\n");
  if (end < 0) return null;
  return { text: text.slice(0, end), length: end + "end_header\n".length };
}

function isKsplat(bytes: Uint8Array): boolean {
  // GaussianSplats3D's .ksplat: a 4096-byte header starting with version 0.1.
  if (bytes.length < 4096 + 1024) return false;
  if (bytes[0] !== 0 || bytes[1] < 1) return false;
  const maxSections = readU32(bytes, 4);
  const sections = readU32(bytes, 8);
  const maxSplats = readU32(bytes, 12);
  const splats = readU32(bytes, 16);
  return sections >= 1 && sections <= maxSections && splats <= maxSplats && splats > 0;
}

function extensionOf(fileName: string | undefined): string {
  if (!fileName) return "";
  const clean = fileName.split(/[?#]/)[0];
  const dot = clean.lastIndexOf(".");
  return dot < 0 ? "" : clean.slice(dot + 1).toLowerCase();
}

/**
 * Detects a model format from the first bytes (at least 4,096 + 1,024 for .ksplat; 64 KiB is plenty).
 * Returns null when the bytes match no supported format.
 */
export function detectModelFormat(head: Uint8Array, fileName?: string): ModelFormat | null {
  if (head.length >= 12 && ascii(head, 0, 4) === "glTF") return "glb";
  const ply = readPlyHeader(head);
  if (ply) {
    return /\belement chunk\b/.test(ply.text) && /packed_position/.test(ply.text)
      ? "compressed-ply"
      : "ply";
  }
  if (head.length >= 8 && ascii(head, 0, 4) === "NGSP") return "spz";
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) {
    // .spz files are usually gzip streams; a gzip without the .spz name is not a model we know.
    return extensionOf(fileName) === "spz" ? "spz" : null;
  }
  if (head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 3 && head[3] === 4) {
    return extensionOf(fileName) === "sog" ? "sog" : null;
  }
  if (isKsplat(head)) return "ksplat";
  const ext = extensionOf(fileName);
  if (ext === "gltf" && head.length > 0 && head[0] === 0x7b /* { */) return "gltf";
  if (ext === "splat" && head.length >= 32) return "splat";
  return null;
}

/** Whether a detected format satisfies a model_type declared by a client (SPEC §3). */
export function formatMatchesDeclaredType(format: ModelFormat | null, declared: DeclaredModelType): boolean {
  if (!format) return false;
  if (declared === "glb") return format === "glb";
  if (declared === "ply") return format === "ply" || format === "compressed-ply";
  return format === "ksplat";
}

export { extensionOf as fileExtension };
