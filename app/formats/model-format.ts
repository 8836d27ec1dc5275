import { readPlyHeader } from "./ply";

/**
 * Model format detection shared by the browser viewer and the server's upload checks.
 * Magic bytes decide first; the file extension only breaks ties for formats without a header (.splat,
 * .gltf) and for zips that are not recognisably a SOG bundle.
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

export function isModelFormat(format: string | null | undefined): format is ModelFormat {
  return !!format && (MODEL_FORMATS as readonly string[]).includes(format);
}

/**
 * The model types a client may declare on an item: SPEC §3's glb, ply and ksplat, and the splat
 * containers SuperSplat users bring (.spz, .splat, .sog; docs/decisions/026-more-splat-formats.md).
 */
export const DECLARED_MODEL_TYPES = ["glb", "ply", "ksplat", "spz", "splat", "sog"] as const;
export type DeclaredModelType = (typeof DECLARED_MODEL_TYPES)[number];

const ascii = (bytes: Uint8Array, start: number, length: number) =>
  String.fromCharCode(...bytes.subarray(start, start + length));

function readU32(bytes: Uint8Array, offset: number): number {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(offset, true);
}

const KSPLAT_MAIN_HEADER = 4096;
const KSPLAT_SECTION_HEADER = 1024;
/** Bytes of one splat per .ksplat compression level (centre, scale, rotation, colour) and of one SH component. */
const KSPLAT_SPLAT_BYTES = [
  { base: 44, harmonic: 4 },
  { base: 24, harmonic: 2 },
  { base: 24, harmonic: 1 },
];
const SH_COMPONENTS = [0, 9, 24, 45];

/**
 * The byte length a .ksplat must have, from its main and section headers (GaussianSplats3D's
 * SplatBuffer layout), or null when the headers are not all there or make no sense.
 */
export function expectedKsplatLength(head: Uint8Array): number | null {
  if (!isKsplat(head)) return null;
  const maxSections = readU32(head, 4);
  const compression = KSPLAT_SPLAT_BYTES[new DataView(head.buffer, head.byteOffset, head.byteLength).getUint16(20, true)];
  const dataStart = KSPLAT_MAIN_HEADER + maxSections * KSPLAT_SECTION_HEADER;
  if (!compression || dataStart > head.length) return null;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  let total = dataStart;
  for (let i = 0; i < maxSections; i++) {
    const at = KSPLAT_MAIN_HEADER + i * KSPLAT_SECTION_HEADER;
    const maxSplats = view.getUint32(at + 4, true);
    const bucketCount = view.getUint32(at + 12, true);
    const bucketStorage = view.getUint16(at + 20, true);
    const partialBuckets = view.getUint32(at + 36, true);
    const components = SH_COMPONENTS[view.getUint16(at + 40, true)];
    if (components === undefined) return null;
    total += bucketStorage * bucketCount + partialBuckets * 4 + maxSplats * (compression.base + components * compression.harmonic);
  }
  return total;
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

/**
 * PlayCanvas SOG bundles are zips whose entries are meta.json and WebP images (means_l.webp,
 * means_u.webp, quats.webp, scales.webp, sh0.webp, shN_*.webp). The first local file header names
 * the first entry; `splat-transform` writes the images first and meta.json last.
 */
function isSogZip(bytes: Uint8Array): boolean {
  if (bytes.length < 30) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const nameLength = view.getUint16(26, true);
  if (nameLength === 0 || 30 + nameLength > bytes.length) return false;
  const name = ascii(bytes, 30, nameLength);
  return name === "meta.json" || /^(means_[lu]|quats|scales|sh0|shN_centroids|shN_labels)\.webp$/.test(name);
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
  // SPZ v1–v3 are gzip streams: of the formats we read, only .spz is gzip, so the bytes decide.
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return "spz";
  if (head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 3 && head[3] === 4) {
    return isSogZip(head) || extensionOf(fileName) === "sog" ? "sog" : null;
  }
  const ext = extensionOf(fileName);
  // Before .ksplat: its header check is loose enough that a .splat's first floats could pass it.
  if (ext === "splat" && head.length >= 32) return "splat";
  if (isKsplat(head)) return "ksplat";
  if (ext === "gltf" && head.length > 0 && head[0] === 0x7b /* { */) return "gltf";
  return null;
}

/** Bytes format detection looks at: enough for a .ksplat header and any PLY header. */
export const FORMAT_HEAD_BYTES = 64 * 1024;

/** detectModelFormat on the head of a whole file (or of what has arrived of it). */
export function detectFileFormat(bytes: ArrayBuffer | Uint8Array, fileName?: string): ModelFormat | null {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  return detectModelFormat(view.subarray(0, Math.min(view.length, FORMAT_HEAD_BYTES)), fileName);
}

/** The gaussian-splat formats (everything but glTF). */
export const SPLAT_FORMATS: readonly ModelFormat[] = ["ply", "compressed-ply", "ksplat", "spz", "splat", "sog"];

export function isSplatFormat(format: ModelFormat | string | null | undefined): format is ModelFormat {
  return !!format && (SPLAT_FORMATS as readonly string[]).includes(format);
}

/**
 * Whether a detected format satisfies a model_type declared by a client (SPEC §3). "ply" stays as
 * coarse as before the other splat types existed: a gaussian splat in any container we read by its
 * bytes (.ply, compressed .ply, .spz, .sog). The other types take their own format only; .splat has
 * no magic bytes, so its records are checked separately (formats/splat.ts).
 */
export function formatMatchesDeclaredType(format: ModelFormat | null, declared: DeclaredModelType): boolean {
  if (!format) return false;
  if (declared === "ply") return format === "ply" || format === "compressed-ply" || format === "spz" || format === "sog";
  return format === declared;
}

export { extensionOf as fileExtension };

/** What a file of each declared model type looks like, for the message when one does not. */
const DECLARED_TYPE_SHAPE: Record<DeclaredModelType, string> = {
  glb: "A .glb starts with a binary glTF header.",
  ply: "A .ply starts with a PLY header (or is another gaussian-splat container: .spz, .sog).",
  ksplat: "A .ksplat starts with a GaussianSplats3D header.",
  spz: "A .spz is a gzip stream (SPZ 1–3) or starts with an NGSP header (SPZ 4).",
  splat: "A .splat is a run of 32-byte splat records without a header.",
  sog: "A .sog is a zip bundle of meta.json and WebP images.",
};

/** The upload check's answer when a file's bytes are not the declared model type (one home for it). */
export function declaredTypeMismatchMessage(declared: DeclaredModelType, format: ModelFormat | null): string {
  const found = format ? ` Its bytes are a .${format === "compressed-ply" ? "compressed.ply" : format} file.` : "";
  return `The file's contents are not a valid .${declared} model.${found} ${DECLARED_TYPE_SHAPE[declared]}`;
}
