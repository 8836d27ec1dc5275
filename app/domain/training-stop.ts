/**
 * Why the CPU trainer stopped (sr-train's metrics.json `stopped`), and how the scan panel says it. The worker
 * validates the trainer's word against TRAINING_STOPS; the panel reads TRAINING_STOP_TEXT. Browser-safe.
 */
export const TRAINING_STOPS = ["plateau", "budget", "iterations"] as const;
export type TrainingStop = (typeof TRAINING_STOPS)[number];

export const TRAINING_STOP_TEXT: Record<TrainingStop, string> = {
  plateau: "stopped when it no longer improved",
  budget: "stopped at the time limit",
  iterations: "stopped at the iteration limit",
};

/** A stored value read back from JSON (outcome.training.stopped) as a stop reason, or null. */
export function asTrainingStop(value: unknown): TrainingStop | null {
  return typeof value === "string" && (TRAINING_STOPS as readonly string[]).includes(value) ? (value as TrainingStop) : null;
}
