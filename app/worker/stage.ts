import type { WorkerConfig } from "~/env.server";
import type { StageName } from "~/domain/scan-progress";
import type { RunToolOptions } from "~/tools/run-tool.server";

export interface ScanJobInput {
  id: string;
  itemId: string;
  inputKind: "video" | "image";
  /** A video's storage key, or the image folder's prefix. */
  inputPath: string;
  /** Seconds of video the owner asked to use (≤ 180). */
  duration: number | null;
  /** The lease this run holds (ScanJob.attempts). */
  attempt: number;
}

export interface StageContext {
  job: ScanJobInput;
  config: WorkerConfig;
  /** The job's working folder. */
  dir: string;
  /** An absolute path inside the working folder. */
  path(relative: string): string;
  signal: AbortSignal;
  /** Results of the stages before this one. */
  results: Partial<Record<StageName, unknown>>;
  /** This stage's own progress, 0–1. */
  progress(fraction: number): void;
  /** Runs a tool in its own process group, cancelled with the job and bounded by the stage's time limit. */
  tool(options: Omit<RunToolOptions, "signal" | "onSpawn">): Promise<{ output: string; ms: number }>;
  /** Outputs that are unchanged copies of stored files (relative path → storage key): not stored again. */
  sources: Map<string, string>;
  /**
   * Mid-stage checkpoints (a trainer's state): `save` mirrors a file of the working folder to storage
   * under this job's work prefix; `restore` brings the stored copy back when the local one is missing
   * (another worker resumes) and says whether there is one. Both are keyed by the stage's input hash,
   * so a checkpoint of different inputs is never restored.
   */
  checkpoint: { save(relative: string): Promise<void>; restore(relative: string): Promise<boolean> };
  /** Absolute path of one of our native programs (native/build/bin, or SCANROOM_NATIVE_BIN). */
  native(program: string): string;
}

export interface StageDefinition<R = unknown> {
  name: Exclude<StageName, "publish">;
  /** Bump when the stage's code changes what it produces: old manifests then no longer match. */
  version: number;
  /** Everything besides the previous stage's outputs that decides this stage's result. */
  params(ctx: StageContext): Promise<unknown> | unknown;
  /** Files or folders (relative) the stage produces. */
  outputs: string[];
  run(ctx: StageContext): Promise<R>;
}

/** A scan that ends for a reason the owner should read (quality gate, unusable input). */
export class ScanFailure extends Error {
  constructor(
    message: string,
    readonly advice: string | null,
  ) {
    super(message);
    this.name = "ScanFailure";
  }
}
