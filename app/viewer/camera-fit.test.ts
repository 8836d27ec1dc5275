import { describe, expect, it } from "vitest";
import { fitCamera, fitDistance, viewDirectionFor } from "./camera-fit";

describe("fitDistance", () => {
  it("fits a sphere in the vertical field of view of a wide viewport", () => {
    // 90° vertical FOV: the sphere touches the frustum when sin(45°) * d = r.
    expect(fitDistance(1, 90, 2, 1)).toBeCloseTo(Math.SQRT2);
  });
  it("uses the horizontal field of view of a tall viewport", () => {
    expect(fitDistance(1, 90, 0.5, 1)).toBeGreaterThan(fitDistance(1, 90, 1, 1));
  });
});

describe("fitCamera", () => {
  it("places the camera along the direction, outside the model", () => {
    const fit = fitCamera([1, 2, 3], 2, 45, 1.5, [0, 0, 1]);
    expect(fit.target).toEqual([1, 2, 3]);
    expect(fit.position[0]).toBeCloseTo(1);
    expect(fit.position[1]).toBeCloseTo(2);
    const distance = fit.position[2] - 3;
    expect(distance).toBeGreaterThan(2);
    expect(fit.near).toBeGreaterThan(0);
    expect(fit.near).toBeLessThan(fit.minDistance);
    expect(fit.far).toBeGreaterThan(fit.maxDistance + 2);
    expect(fit.maxDistance).toBeGreaterThan(distance);
  });
  it("survives a degenerate radius", () => {
    const fit = fitCamera([0, 0, 0], 0, 45, 1);
    expect(Number.isFinite(fit.position[2])).toBe(true);
    expect(fit.near).toBeGreaterThan(0);
  });
});

describe("viewDirectionFor", () => {
  it("looks at meshes from the front (+Z) and at splats from three quarters", () => {
    expect(viewDirectionFor("mesh")).toEqual([0, 0.3, 1]);
    expect(viewDirectionFor("splat")).toEqual([1, 0.3, 1]);
  });
  it("returns a fresh array each time", () => {
    const a = viewDirectionFor("mesh");
    a[0] = 42;
    expect(viewDirectionFor("mesh")[0]).toBe(0);
  });
});
