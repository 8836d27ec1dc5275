import { describe, expect, it } from "vitest";
import { boundsCenter, boundsRadius, percentileBounds, quantile, sampleStride } from "./bounds";

describe("quantile", () => {
  it("picks the nearest-rank value", () => {
    expect(quantile([5, 1, 3, 2, 4], 0)).toBe(1);
    expect(quantile([5, 1, 3, 2, 4], 0.5)).toBe(3);
    expect(quantile([5, 1, 3, 2, 4], 1)).toBe(5);
  });
  it("rejects an empty list", () => {
    expect(() => quantile([], 0.5)).toThrow();
  });
});

describe("percentileBounds", () => {
  it("ignores a few far-away floaters", () => {
    const points: number[] = [];
    for (let i = 0; i < 1000; i++) points.push((i % 10) / 9, (i % 7) / 6, (i % 5) / 4); // a unit cube
    points.push(1e6, -1e6, 1e6, -5e5, 5e5, -5e5); // two floaters
    const b = percentileBounds(points, 0.02, 0.98)!;
    for (let a = 0; a < 3; a++) {
      expect(b.min[a]).toBeGreaterThanOrEqual(0);
      expect(b.max[a]).toBeLessThanOrEqual(1);
    }
    const full = percentileBounds(points, 0, 1)!;
    expect(full.max[0]).toBe(1e6);
    expect(full.min[1]).toBe(-1e6);
  });

  it("skips non-finite points and returns null when none is left", () => {
    expect(percentileBounds([NaN, 0, 0, Infinity, 1, 1])).toBeNull();
    expect(percentileBounds([])).toBeNull();
    expect(percentileBounds([NaN, 0, 0, 2, 3, 4], 0, 1)).toEqual({ min: [2, 3, 4], max: [2, 3, 4] });
  });

  it("accepts typed arrays and swapped quantiles", () => {
    const b = percentileBounds(new Float32Array([0, 0, 0, 2, 4, 6]), 1, 0)!;
    expect(b).toEqual({ min: [0, 0, 0], max: [2, 4, 6] });
  });
});

describe("box helpers", () => {
  it("computes centre and bounding-sphere radius", () => {
    const b = { min: [-1, -2, -2] as [number, number, number], max: [1, 2, 2] as [number, number, number] };
    expect(boundsCenter(b)).toEqual([0, 0, 0]);
    expect(boundsRadius(b)).toBeCloseTo(3); // half of sqrt(4 + 16 + 16)
  });
  it("chooses a sampling stride", () => {
    expect(sampleStride(100, 200)).toBe(1);
    expect(sampleStride(1000, 200)).toBe(5);
    expect(sampleStride(1001, 200)).toBe(6);
    expect(sampleStride(10, 0)).toBe(1);
  });
});

describe("framing a splat scene with floaters", () => {
  it("keeps the model filling the view when 1.5 % of the splats float far away", async () => {
    const { fitCamera } = await import("./camera-fit");
    let seed = 7;
    const random = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
    const points: number[] = [];
    for (let i = 0; i < 20_000; i++) points.push(random() - 0.5, random() - 0.5, random() - 0.5); // a unit cube of splats
    for (let i = 0; i < 300; i++) points.push((random() - 0.5) * 400, (random() - 0.5) * 400, (random() - 0.5) * 400); // floaters
    const robust = percentileBounds(points, 0.02, 0.98)!;
    const naive = percentileBounds(points, 0, 1)!;
    const robustFit = fitCamera(boundsCenter(robust), boundsRadius(robust), 45, 16 / 9);
    const naiveFit = fitCamera(boundsCenter(naive), boundsRadius(naive), 45, 16 / 9);
    const distance = (fit: typeof robustFit) => Math.hypot(...fit.position.map((p, a) => p - fit.target[a]));
    // The cube's half-diagonal is ~0.87: the camera stands a few units away, not hundreds.
    expect(boundsRadius(robust)).toBeGreaterThan(0.7);
    expect(boundsRadius(robust)).toBeLessThan(0.9);
    expect(distance(robustFit)).toBeLessThan(4);
    expect(distance(naiveFit)).toBeGreaterThan(100 * distance(robustFit) / 2);
    // The far plane reaches well beyond the framed model (backgrounds of splat scenes stay visible).
    expect(robustFit.far).toBeGreaterThan(40);
  });
});
