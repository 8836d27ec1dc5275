/**
 * A scan's stages as the owner follows them (issue 39: the domain reads these, so they live here, below the worker
 * that runs the stages): their order, labels, weights, the overall progress and the time left.
 */
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
 * Share of a CPU scan's time each stage takes, in percent, used to turn a stage's own progress into the job's
 * overall progress (and so the owner's "about N min left"). Measured with `npm run bench scan` on the CI photo set
 * (24 photos, 800×600, 2 cores, issue 34's defaults; 675 s in all): features 12 s, matching 51 s, mapping 8 s,
 * dense 106 s, mesh 69 s, splat 334 s (the 6-minute training budget), export 32 s, evaluation 32 s — the splat is
 * half the scan, where the weights before said 4 %.
 */
export const STAGE_WEIGHTS: Record<StageName, number> = {
  ingest: 1,
  frames: 1,
  features: 2,
  matching: 8,
  mapping: 1,
  dense: 15,
  mesh: 10,
  splat: 50,
  export: 5,
  evaluation: 5,
  publish: 2,
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
