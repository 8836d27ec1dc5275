import { describe, expect, it } from "vitest";
import { cameraCenter, meanReprojectionError, parseModel, rotationBetween, rotationMatrix, uprightTransform } from "./colmap-model";

const model = parseModel({
  cameras: "# Camera list\n1 SIMPLE_RADIAL 800 600 643.26 400 300 -0.0003\n",
  images:
    "# Image list\n# Number of images: 2\n" +
    "1 1 0 0 0 0 0 5 1 image-001.jpg\n10.5 20.5 1 30.5 40.5 -1\n" +
    "2 0.7071067811865476 0 0.7071067811865476 0 1 2 3 1 image 002.jpg\n\n",
  points3D: "# 3D point list\n1 0.1 0.2 0.3 255 128 0 0.5 1 0 2 1\n2 1 2 3 10 20 30 1.5 1 1 2 0 2 5\n",
});

describe("COLMAP's text model", () => {
  it("reads cameras, images (with an empty points line and a name with a space) and points", () => {
    expect(model.cameras).toEqual([{ id: 1, model: "SIMPLE_RADIAL", width: 800, height: 600, params: [643.26, 400, 300, -0.0003] }]);
    expect(model.images.map((i) => [i.id, i.name, i.cameraId])).toEqual([
      [1, "image-001.jpg", 1],
      [2, "image 002.jpg", 1],
    ]);
    expect(model.points.count).toBe(2);
    expect(Array.from(model.points.colors.subarray(0, 3))).toEqual([255, 128, 0]);
    expect(Array.from(model.points.trackLengths)).toEqual([2, 3]);
    expect(Array.from(model.points.tracks[1])).toEqual([1, 2, 2]);
    expect(meanReprojectionError(model.points)).toBe(1);
  });

  it("puts each camera's centre at −Rᵀt", () => {
    expect(cameraCenter(model.images[0])).toEqual([-0, -0, -5]);
    const [x, y, z] = cameraCenter(model.images[1]);
    // A quarter turn about y: R maps (x, y, z) → (z, y, −x); C = −Rᵀ(1, 2, 3) = (3, −2, −1).
    expect(x).toBeCloseTo(3, 10);
    expect(y).toBeCloseTo(-2, 10);
    expect(z).toBeCloseTo(-1, 10);
  });

  it("turns a scan upright: the cameras' mean up becomes −y and the points' median the origin", () => {
    // Cameras whose image "up" points along world +x: a rotation taking world x to camera −y.
    const q = [Math.SQRT1_2, 0, 0, -Math.SQRT1_2] as [number, number, number, number];
    const r = rotationMatrix(q);
    expect([-r[3], -r[4], -r[5]].map((v) => Math.round(v * 1e9) / 1e9)).toEqual([1, 0, 0]);
    const points = { count: 3, positions: Float64Array.from([5, 5, 5, 6, 6, 6, 7, 7, 7]) };
    const t = uprightTransform([{ q }], points);
    const apply = (p: number[]) => [0, 1, 2].map((row) => t[row * 4] * p[0] + t[row * 4 + 1] * p[1] + t[row * 4 + 2] * p[2] + t[row * 4 + 3]);
    apply([6, 6, 6]).forEach((v) => expect(v).toBeCloseTo(0, 10));
    const up = apply([7, 6, 6]);
    expect(up[0]).toBeCloseTo(0, 10);
    expect(up[1]).toBeCloseTo(-1, 10);
    expect(up[2]).toBeCloseTo(0, 10);
    expect(t.slice(12)).toEqual([0, 0, 0, 1]);
  });

  it("rotates one direction onto another, opposite ones included", () => {
    for (const [a, b] of [
      [[1, 0, 0], [0, -1, 0]],
      [[0, 1, 0], [0, -1, 0]],
      [[0, 0.6, 0.8], [0, -1, 0]],
    ] as Array<[[number, number, number], [number, number, number]]>) {
      const m = rotationBetween(a, b);
      [0, 1, 2].forEach((row) => expect(m[row * 3] * a[0] + m[row * 3 + 1] * a[1] + m[row * 3 + 2] * a[2]).toBeCloseTo(b[row], 10));
    }
  });
});
