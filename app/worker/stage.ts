import type { WorkerConfig } from "./config.server";
import type { RunToolOptions } from "~/tools/run-tool.server";

/** The pipeline's stages in order (DESIGN §5). Publish is the last and has no manifest. */
export const STAGE_NAMES = ["ingest", "frames", "features", "matching", "mapping", "dense", "mesh", "splat", "export", "evaluation", "publish"] as const;
export type StageName = (typeof STAGE_NAMES)[number];

/** What the owner reads while a stage runs (Item.statusDetail). */
export const STAGE_LABELS: Record<StageName, string> = {
  ingest: "Checking the upload",
  frames: "Choosing frames",
  features: "Finding features",
  matching: "Matching images",
  mapping: "Placing cameras",
  dense: "Measuring depth",
  mesh: "Building the textured mesh",
  splat: "Training the splat",
  evaluation: "Measuring quality",
  export: "Exporting",
  publish: "Publishing",
};

/**
 * Share of a CPU scan's time each stage takes (measured on the CI photo set, see bench/scan.bench.ts),
 * used to turn a stage's own progress into the job's overall progress.
 */
export const STAGE_WEIGHTS: Record<StageName, number> = {
  ingest: 1,
  frames: 4,
  features: 12,
  matching: 45,
  mapping: 15,
  dense: 10,
  mesh: 10,
  splat: 4,
  evaluation: 2,
  export: 12,
  publish: 5,
};

/** Overall progress (0–1) when `stage` is `fraction` done. */
export function overallProgress(stage: StageName, fraction: number): number {
  const total = STAGE_NAMES.reduce((sum, name) => sum + STAGE_WEIGHTS[name], 0);
  let done = 0;
  for (const name of STAGE_NAMES) {
    if (name === stage) break;
    done += STAGE_WEIGHTS[name];
  }
  return Math.min(1, (done + STAGE_WEIGHTS[stage] * Math.min(1, Math.max(0, fraction))) / total);
}

/**
 * Seconds left at the pace so far, once there is enough to go on (5 % done, 10 s in); null before.
 * Overall progress is weighted by measured stage times, so the pace is roughly even across stages.
 */
export function estimateSecondsLeft(overall: number, elapsedMs: number): number | null {
  if (!(overall >= 0.05 && overall < 1 && elapsedMs > 10_000)) return null;
  return Math.ceil(((elapsedMs / overall) * (1 - overall)) / 1000);
}

/** The one line the owner sees: "Matching images — 42% · about 3 min left". */
export function progressDetail(stage: StageName, overall: number, elapsedMs: number): string {
  const percent = Math.floor(overall * 100);
  let line = `${STAGE_LABELS[stage]} — ${percent}%`;
  const secondsLeft = estimateSecondsLeft(overall, elapsedMs);
  if (secondsLeft !== null) {
    const leftMinutes = Math.ceil(secondsLeft / 60);
    line += leftMinutes <= 1 ? " · about a minute left" : ` · about ${leftMinutes} min left`;
  }
  return line;
}

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
