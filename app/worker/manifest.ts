import { createHash } from "node:crypto";

/**
 * Stage manifests (issue 5): each stage records the hash of everything its result depends on — its
 * name and version, its parameters and the outputs of the stage before it — and what it produced.
 * A resumed job recomputes the input hash; a manifest with the same one means the stage's work is
 * done and only its files need to be there. Pure helpers; app/worker/checkpoints.server.ts does I/O.
 */
export interface OutputFile {
  /** Relative to the job's working folder, with forward slashes. */
  path: string;
  size: number;
  sha256: string;
  /** Where a copy lives in storage (a checkpoint, or the original input a file was copied from). */
  key: string;
}

export interface StageManifest {
  stage: string;
  version: number;
  inputHash: string;
  outputs: OutputFile[];
  /** Hash of the outputs (paths, sizes, contents): the next stage's input. */
  outputHash: string;
  /** The stage's small JSON result (frame list, registered images, metrics…). */
  result: unknown;
  seconds: number;
  /** The lease (ScanJob.attempts) under which the stage ran. */
  attempt: number;
  finishedAt: string;
}

/** JSON with object keys sorted at every level, so equal values always hash the same. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return "null";
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

export function sha256(text: string | Uint8Array): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The input hash of a stage: its identity, parameters and the hash of the upstream outputs. */
export function stageInputHash(input: { stage: string; version: number; params: unknown; upstream: string }): string {
  return sha256(canonicalJson({ stage: input.stage, version: input.version, params: input.params, upstream: input.upstream }));
}

/** The hash of a stage's outputs and result (the storage keys they were copied to do not count). */
export function outputsHash(outputs: Array<Pick<OutputFile, "path" | "size" | "sha256">>, result: unknown): string {
  const files = [...outputs].sort((a, b) => (a.path < b.path ? -1 : 1)).map(({ path, size, sha256: digest }) => ({ path, size, digest }));
  return sha256(canonicalJson({ files, result }));
}

/** Whether a manifest records finished work for these exact inputs. */
export function manifestMatches(manifest: StageManifest | null, stage: string, inputHash: string): manifest is StageManifest {
  return manifest !== null && manifest.stage === stage && manifest.inputHash === inputHash;
}
