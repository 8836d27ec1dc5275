import { Matrix4, PerspectiveCamera, Vector3 } from "three";
import { describe, expect, it } from "vitest";
import { boundsOf, outsideBox, pointInPolygon, projectCentres, selectInBrush, selectInLasso } from "./selection";

describe("pointInPolygon", () => {
  const square = [
    { x: 0, y: 0 },
    { x: 10, y: 0 },
    { x: 10, y: 10 },
    { x: 0, y: 10 },
  ];
  // A "U": the notch between x 3–7 above y 5 is outside.
  const u = [
    { x: 0, y: 0 },
    { x: 10, y: 0 },
    { x: 10, y: 10 },
    { x: 7, y: 10 },
    { x: 7, y: 5 },
    { x: 3, y: 5 },
    { x: 3, y: 10 },
    { x: 0, y: 10 },
  ];

  it("tells inside from outside for a square and a concave lasso", () => {
    expect(pointInPolygon(5, 5, square)).toBe(true);
    expect(pointInPolygon(11, 5, square)).toBe(false);
    expect(pointInPolygon(-0.1, 5, square)).toBe(false);
    expect(pointInPolygon(5, 2, u)).toBe(true);
    expect(pointInPolygon(5, 8, u)).toBe(false);
    expect(pointInPolygon(1, 8, u)).toBe(true);
    expect(pointInPolygon(9, 8, u)).toBe(true);
  });

  it("selects the kept centres inside a lasso, never deleted or off-screen ones", () => {
    const screen = Float32Array.from([5, 2, 5, 8, 1, 8, Number.NaN, Number.NaN, 9, 8]);
    expect(selectInLasso(screen, u, new Uint8Array(5))).toEqual([0, 2, 4]);
    expect(selectInLasso(screen, u, Uint8Array.from([0, 0, 1, 0, 0]))).toEqual([0, 4]);
    expect(selectInLasso(screen, u.slice(0, 2), new Uint8Array(5))).toEqual([]);
  });
});

describe("selectInBrush", () => {
  it("selects centres within the radius, the edge included", () => {
    const screen = Float32Array.from([100, 100, 110, 100, 110.01, 100, 100, 93, Number.NaN, Number.NaN]);
    expect(selectInBrush(screen, { x: 100, y: 100 }, 10, new Uint8Array(5))).toEqual([0, 1, 3]);
    expect(selectInBrush(screen, { x: 100, y: 100 }, 10, Uint8Array.from([1, 0, 0, 0, 0]))).toEqual([1, 3]);
  });
});

describe("projectCentres", () => {
  it("puts centres where three.js projects them, in canvas pixels, and drops those behind the camera", () => {
    const camera = new PerspectiveCamera(50, 800 / 600, 0.1, 100);
    camera.position.set(1, 2, 6);
    camera.lookAt(0, 0, 0);
    camera.updateMatrixWorld();
    // A model turned 180° about X, as the viewer shows splats.
    const model = new Matrix4().makeRotationX(Math.PI);
    const matrix = new Matrix4().multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse).multiply(model);
    const points = [new Vector3(0, 0, 0), new Vector3(0.5, -0.3, 0.2), new Vector3(0, 0, -20)];
    const screen = projectCentres(Float32Array.from(points.flatMap((p) => p.toArray())), matrix.elements, 800, 600);
    for (const [i, point] of points.slice(0, 2).entries()) {
      const ndc = point.clone().applyMatrix4(model).project(camera);
      expect(screen[i * 2]).toBeCloseTo(((ndc.x + 1) / 2) * 800, 3);
      expect(screen[i * 2 + 1]).toBeCloseTo(((1 - ndc.y) / 2) * 600, 3);
    }
    expect(screen[0]).toBeCloseTo(400, 0);
    // (0, 0, −20) turned about X is at z = +20: behind the camera at z = 6.
    expect(Number.isNaN(screen[4])).toBe(true);
  });
});

describe("crop box", () => {
  const positions = Float32Array.from([0, 0, 0, 1, 1, 1, -1, 0.5, 0, 5, 0, 0, 0, 0, -3]);

  it("finds the kept splats outside the box, a centre on a face being inside", () => {
    const box = { min: [-1, -1, -1] as [number, number, number], max: [1, 1, 1] as [number, number, number] };
    expect(outsideBox(positions, box, new Uint8Array(5))).toEqual([3, 4]);
    expect(outsideBox(positions, box, Uint8Array.from([0, 0, 0, 1, 0]))).toEqual([4]);
  });

  it("bounds the kept centres", () => {
    expect(boundsOf(positions, new Uint8Array(5))).toEqual({ min: [-1, 0, -3], max: [5, 1, 1] });
    expect(boundsOf(positions, Uint8Array.from([0, 0, 0, 1, 1]))).toEqual({ min: [-1, 0, 0], max: [1, 1, 1] });
    expect(boundsOf(positions, Uint8Array.from([1, 1, 1, 1, 1]))).toBeNull();
  });
});
