import { describe, expect, it } from "vitest";
import { overallProgress, progressDetail } from "./scan-progress";

describe("overall progress and the owner's status line", () => {
  it("adds the finished stages' weights to the running stage's share", () => {
    expect(overallProgress("ingest", 0)).toBe(0);
    expect(overallProgress("publish", 1)).toBe(1);
    const before = overallProgress("matching", 0);
    const half = overallProgress("matching", 0.5);
    const done = overallProgress("mapping", 0);
    expect(half).toBeCloseTo((before + done) / 2, 10);
  });

  it("gives training half the bar, as it takes half of a CPU scan's time (bench scan)", () => {
    expect(overallProgress("export", 0) - overallProgress("splat", 0)).toBeCloseTo(0.5, 10);
    // An hour-long estimate does not appear at 90 % of the way when training starts: it is under halfway.
    expect(overallProgress("splat", 0)).toBeLessThan(0.5);
  });

  it("names the stage and percentage, with an estimate once there is enough to go on", () => {
    expect(progressDetail("features", 0.02, 5_000)).toBe("Finding features — 2%");
    expect(progressDetail("matching", 0.5, 4 * 60_000)).toBe("Matching images — 50% · about 4 min left");
    expect(progressDetail("export", 0.98, 100_000)).toBe("Exporting — 98% · about a minute left");
  });
});
