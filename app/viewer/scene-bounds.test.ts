import { describe, expect, it } from "vitest";
import type { Bounds } from "./bounds";
import { partMatrix } from "./part-transform";
import { transformBounds, unionBounds } from "./scene-bounds";

const unitCube: Bounds = { min: [-0.5, -0.5, -0.5], max: [0.5, 0.5, 0.5] };
const s = Math.SQRT1_2;

function expectBounds(actual: Bounds, expected: Bounds) {
  for (let a = 0; a < 3; a++) {
    expect(actual.min[a]).toBeCloseTo(expected.min[a], 9);
    expect(actual.max[a]).toBeCloseTo(expected.max[a], 9);
  }
}

describe("transformBounds", () => {
  it("moves and scales a box", () => {
    const matrix = partMatrix({ position: [10, 0, -2], quaternion: [0, 0, 0, 1], scale: [2, 3, 4] });
    expectBounds(transformBounds(unitCube, matrix), { min: [9, -1.5, -4], max: [11, 1.5, 0] });
  });

  it("grows a box turned 45° to hold all its corners", () => {
    const matrix = partMatrix({ position: [0, 0, 0], quaternion: [0, Math.sin(Math.PI / 8), 0, Math.cos(Math.PI / 8)], scale: [1, 1, 1] });
    expectBounds(transformBounds(unitCube, matrix), { min: [-s, -0.5, -s], max: [s, 0.5, s] });
  });

  it("maps an off-centre box through a quarter turn", () => {
    const box: Bounds = { min: [1, 0, 0], max: [2, 1, 1] };
    // A quarter turn about Y maps (x, y, z) to (z, y, -x).
    const matrix = partMatrix({ position: [0, 0, 0], quaternion: [0, s, 0, s], scale: [1, 1, 1] });
    expectBounds(transformBounds(box, matrix), { min: [0, 0, -2], max: [1, 1, -1] });
  });
});

describe("unionBounds", () => {
  it("holds every box", () => {
    expect(
      unionBounds([
        { min: [0, 0, 0], max: [1, 1, 1] },
        { min: [-2, 0.5, 0], max: [0, 3, 0.5] },
      ]),
    ).toEqual({ min: [-2, 0, 0], max: [1, 3, 1] });
  });

  it("is null for no boxes", () => {
    expect(unionBounds([])).toBeNull();
  });

  it("frames two parts placed apart as one scene", () => {
    const left = transformBounds(unitCube, partMatrix({ position: [-3, 0, 0], quaternion: [0, 0, 0, 1], scale: [1, 1, 1] }));
    const right = transformBounds(unitCube, partMatrix({ position: [3, 1, 0], quaternion: [0, 0, 0, 1], scale: [2, 2, 2] }));
    expectBounds(unionBounds([left, right])!, { min: [-3.5, -0.5, -1], max: [4, 2, 1] });
  });
});
