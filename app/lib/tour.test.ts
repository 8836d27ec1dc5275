import { describe, expect, it } from "vitest";
import type { CameraView } from "~/domain/annotation-schemas";
import { easeInOutCubic, interpolateView, stepTour, tourLabel, viewForStop } from "./tour";

const distance = (view: CameraView) =>
  Math.hypot(view.position[0] - view.target[0], view.position[1] - view.target[1], view.position[2] - view.target[2]);

describe("tour sequencing", () => {
  it("starts at the first stop and walks forward and back within the tour", () => {
    expect(stepTour(null, 3, "next")).toBe(0);
    expect(stepTour(0, 3, "next")).toBe(1);
    expect(stepTour(1, 3, "next")).toBe(2);
    expect(stepTour(2, 3, "next")).toBe(2);
    expect(stepTour(2, 3, "previous")).toBe(1);
    expect(stepTour(0, 3, "previous")).toBe(0);
    expect(stepTour(1, 3, "first")).toBe(0);
    expect(stepTour(0, 3, "last")).toBe(2);
    expect(stepTour(null, 3, "last")).toBe(2);
  });

  it("has no stop when there are no annotations, and keeps an index valid after deletions", () => {
    expect(stepTour(null, 0, "next")).toBeNull();
    expect(stepTour(4, 2, "next")).toBe(1);
  });

  it("labels stops from 1", () => {
    expect(tourLabel(0, 2)).toBe("Stop 1 of 2");
  });
});

describe("tour camera views", () => {
  const current: CameraView = { position: [0, 0, 5], target: [0, 0, 0] };

  it("uses the view saved with a stop", () => {
    const saved: CameraView = { position: [1, 2, 3], target: [0, 1, 0] };
    expect(viewForStop({ position: [0, 1, 0], normal: null, camera: saved }, current)).toEqual(saved);
  });

  it("without a saved view, looks at the anchor along its normal from the current distance", () => {
    const view = viewForStop({ position: [1, 0, 0], normal: [2, 0, 0], camera: null }, current);
    expect(view.target).toEqual([1, 0, 0]);
    expect(view.position).toEqual([6, 0, 0]);
  });

  it("without a normal either, keeps the current viewing direction", () => {
    const view = viewForStop({ position: [0, 1, 0], normal: null, camera: null }, current);
    expect(view).toEqual({ position: [0, 1, 5], target: [0, 1, 0] });
  });

  it("swings around the target between two views instead of cutting through the model", () => {
    const from: CameraView = { position: [0, 0, 4], target: [0, 0, 0] };
    const to: CameraView = { position: [4, 0, 0], target: [0, 0, 0] };
    expect(interpolateView(from, to, 0).position[2]).toBeCloseTo(4);
    expect(interpolateView(from, to, 1).position[0]).toBeCloseTo(4);
    const middle = interpolateView(from, to, 0.5);
    expect(distance(middle)).toBeCloseTo(4);
    expect(middle.position[0]).toBeCloseTo(4 * Math.SQRT1_2);
    expect(middle.position[2]).toBeCloseTo(4 * Math.SQRT1_2);
  });

  it("turns through a side when the two views face each other, keeping the distance", () => {
    const from: CameraView = { position: [0, 0, 2], target: [0, 0, 0] };
    const to: CameraView = { position: [0, 0, -8], target: [0, 0, 0] };
    for (const t of [0.25, 0.5, 0.75]) {
      const view = interpolateView(from, to, t);
      expect(distance(view)).toBeCloseTo(2 * 4 ** t);
    }
    expect(interpolateView(from, to, 1).position[2]).toBeCloseTo(-8);
  });

  it("moves the target in a straight line", () => {
    const from: CameraView = { position: [0, 0, 1], target: [0, 0, 0] };
    const to: CameraView = { position: [2, 0, 1], target: [2, 0, 0] };
    expect(interpolateView(from, to, 0.5)).toEqual({ position: [1, 0, 1], target: [1, 0, 0] });
  });

  it("eases in and out", () => {
    expect(easeInOutCubic(0)).toBe(0);
    expect(easeInOutCubic(0.5)).toBe(0.5);
    expect(easeInOutCubic(1)).toBe(1);
    expect(easeInOutCubic(0.1)).toBeLessThan(0.1);
    expect(easeInOutCubic(0.9)).toBeGreaterThan(0.9);
  });
});
