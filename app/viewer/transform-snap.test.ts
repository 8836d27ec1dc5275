import { describe, expect, it } from "vitest";
import { MIN_PART_SCALE } from "./part-transform";
import { SNAP_STEPS, snapTo, uniformScaleFrom } from "./transform-snap";

describe("snapTo", () => {
  it("rounds to the nearest step", () => {
    expect(snapTo(0.26, SNAP_STEPS.translation)).toBeCloseTo(0.3, 12);
    expect(snapTo(-0.04, SNAP_STEPS.translation)).toBeCloseTo(0, 12);
    expect(snapTo((20 * Math.PI) / 180, SNAP_STEPS.rotation)).toBeCloseTo((15 * Math.PI) / 180, 12);
    expect(snapTo((23 * Math.PI) / 180, SNAP_STEPS.rotation)).toBeCloseTo((30 * Math.PI) / 180, 12);
  });
});

describe("uniformScaleFrom", () => {
  it("takes the axis the drag changed (one handle of the gizmo)", () => {
    expect(uniformScaleFrom([1, 1, 1], [1, 1.8, 1])).toBeCloseTo(1.8, 12);
    expect(uniformScaleFrom([2, 2, 2], [2, 2, 1])).toBeCloseTo(1, 12);
  });

  it("takes the common value when the centre handle scaled all axes", () => {
    expect(uniformScaleFrom([1, 1, 1], [0.5, 0.5, 0.5])).toBeCloseTo(0.5, 12);
  });

  it("snaps to 0.1 steps, never down to zero", () => {
    expect(uniformScaleFrom([1, 1, 1], [1.26, 1, 1], SNAP_STEPS.scale)).toBeCloseTo(1.3, 12);
    expect(uniformScaleFrom([1, 1, 1], [0.02, 1, 1], SNAP_STEPS.scale)).toBeCloseTo(0.1, 12);
  });

  it("never gives a scale at or below zero", () => {
    expect(uniformScaleFrom([1, 1, 1], [-0.4, -0.4, -0.4])).toBe(MIN_PART_SCALE);
    expect(uniformScaleFrom([1, 1, 1], [1, 0, 1])).toBe(MIN_PART_SCALE);
  });
});
