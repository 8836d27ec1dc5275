/**
 * PlayCanvas's SOG bundle (a zip of meta.json and WebP images, one pixel per splat): what its meta.json says, read
 * in one place for the server's checks (sog-bundle.server.ts) and the viewer's early splats. Browser-safe.
 */

/** The parts every SOG meta.json describes, each with the images that hold it. */
export const SOG_PARTS = ["means", "scales", "quats", "sh0"] as const;

/** meta.json of a SOG v2 bundle, as far as we rely on it. */
export interface SogMeta {
  count: number;
  means: { mins: number[]; maxs: number[]; files: [string, string] };
  scales: { codebook: number[]; files: [string] };
  quats: { files: [string] };
  sh0: { codebook: number[]; files: [string] };
  /** Higher-order spherical harmonics, when the bundle has them. */
  shN?: { files: string[] };
}

const isNumbers = (value: unknown, length?: number): value is number[] =>
  Array.isArray(value) && (length === undefined || value.length === length) && value.every((v) => typeof v === "number" && Number.isFinite(v));
const isFiles = (value: unknown, length?: number): boolean =>
  Array.isArray(value) && (length === undefined ? value.length > 0 : value.length === length) && value.every((v) => typeof v === "string" && v.length > 0);

/** meta.json of a SOG v2 bundle, checked as far as a decoder relies on it; throws with the reason otherwise. */
export function parseSogMeta(json: unknown): SogMeta {
  const meta = json as Record<string, Record<string, unknown>> | null;
  const count = (json as { count?: unknown } | null)?.count;
  if (!meta || typeof meta !== "object" || (json as { version?: unknown }).version !== 2) throw new Error("not a SOG v2 meta.json");
  if (typeof count !== "number" || !Number.isInteger(count) || count <= 0) throw new Error("meta.json declares no splats");
  const { means, scales, quats, sh0, shN } = meta;
  if (!means || !isNumbers(means.mins, 3) || !isNumbers(means.maxs, 3) || !isFiles(means.files, 2)) throw new Error("meta.json: bad means");
  if (!scales || !isNumbers(scales.codebook, 256) || !isFiles(scales.files, 1)) throw new Error("meta.json: bad scales");
  if (!quats || !isFiles(quats.files, 1)) throw new Error("meta.json: bad quats");
  if (!sh0 || !isNumbers(sh0.codebook, 256) || !isFiles(sh0.files, 1)) throw new Error("meta.json: bad sh0");
  if (shN !== undefined && (!shN || !isFiles(shN.files))) throw new Error("meta.json: bad shN");
  return meta as unknown as SogMeta;
}

/** Every image a SOG v2 meta.json names. */
export function sogFiles(meta: SogMeta): string[] {
  return [meta.means, meta.scales, meta.quats, meta.sh0, meta.shN].flatMap((part) => part?.files ?? []);
}

/** The first file `files` names that `names` lacks (or that is not a name at all); undefined when none. */
export function missingFile(files: unknown[], names: Set<string>): unknown {
  return files.find((file) => typeof file !== "string" || !names.has(file));
}
