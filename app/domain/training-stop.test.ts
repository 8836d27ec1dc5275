import { describe, expect, it } from "vitest";
import { asTrainingStop, TRAINING_STOP_TEXT, TRAINING_STOPS } from "./training-stop";

describe("training stop reasons", () => {
  it("reads back each reason the trainer writes and nothing else", () => {
    for (const stop of TRAINING_STOPS) expect(asTrainingStop(stop)).toBe(stop);
    expect(asTrainingStop("converged")).toBeNull();
    expect(asTrainingStop(3)).toBeNull();
    expect(asTrainingStop(undefined)).toBeNull();
  });

  it("gives every reason a line for the scan panel", () => {
    expect(Object.keys(TRAINING_STOP_TEXT).sort()).toEqual([...TRAINING_STOPS].sort());
    expect(TRAINING_STOP_TEXT.plateau).toBe("stopped when it no longer improved");
  });
});
