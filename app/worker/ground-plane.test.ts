import { describe, expect, it } from "vitest";
import { dominantPlane, snapToPlane } from "./ground-plane";
import type { Mesh } from "./mesh-glb";

/** A bumpy 41×41 floor (y = ±0.004 in a fixed pattern, 2 units wide) and a unit-radius ball resting on it. */
function floorAndBall(): { mesh: Mesh; floorVertices: number } {
  const positions: number[] = [];
  const indices: number[] = [];
  const n = 40;
  for (let j = 0; j <= n; j++)
    for (let i = 0; i <= n; i++) positions.push(-1 + (2 * i) / n, 0.004 * Math.sin(i * 1.7 + j * 2.3), -1 + (2 * j) / n);
  for (let j = 0; j < n; j++)
    for (let i = 0; i < n; i++) {
      const a = j * (n + 1) + i;
      indices.push(a, a + n + 1, a + 1, a + 1, a + n + 1, a + n + 2);
    }
  const floorVertices = positions.length / 3;
  // Ball of radius 0.3 centred 0.3 above the floor: rings of latitude.
  const rings = 12, segments = 24;
  for (let r = 1; r < rings; r++)
    for (let s = 0; s < segments; s++) {
      const theta = (Math.PI * r) / rings, phi = (2 * Math.PI * s) / segments;
      positions.push(0.3 * Math.sin(theta) * Math.cos(phi), 0.3 + 0.3 * Math.cos(theta), 0.3 * Math.sin(theta) * Math.sin(phi));
    }
  for (let r = 0; r < rings - 2; r++)
    for (let s = 0; s < segments; s++) {
      const a = floorVertices + r * segments + s, b = floorVertices + r * segments + ((s + 1) % segments);
      indices.push(a, b, a + segments, b, b + segments, a + segments);
    }
  return { mesh: { positions: Float32Array.from(positions), colors: null, indices: Uint32Array.from(indices) }, floorVertices };
}

describe("the ground plane", () => {
  it("is found under an object and the floor's bumps are flattened onto it, the object left as it was", () => {
    const { mesh, floorVertices } = floorAndBall();
    const found = dominantPlane(mesh.positions, 0.01);
    expect(found).not.toBeNull();
    const { plane, share } = found!;
    // The floor is y = 0 on average: normal ±(0, 1, 0), offset 0.
    const tilt = Math.acos(Math.min(1, Math.abs(plane.normal[1]))) * (180 / Math.PI);
    console.warn(`ground plane: tilt ${tilt.toFixed(4)}° (bound 0.5°), offset ${plane.d.toExponential(2)} (bound 1e-3), ${(share * 100).toFixed(1)} % of the vertices`);
    expect(tilt).toBeLessThan(0.5);
    expect(Math.abs(plane.d)).toBeLessThan(1e-3);
    expect(share).toBeGreaterThan(0.8);

    const { mesh: snapped, snapped: moved } = snapToPlane(mesh, plane, 0.01);
    let floorWorst = 0;
    for (let v = 0; v < floorVertices; v++) floorWorst = Math.max(floorWorst, Math.abs(snapped.positions[v * 3 + 1] - plane.d * plane.normal[1]));
    console.warn(`snapped ${moved} vertices; floor's largest height after snapping ${floorWorst.toExponential(2)} (before 4e-3)`);
    expect(floorWorst).toBeLessThan(1e-5);
    // The ball's vertices more than 0.01 above the floor did not move; faces are untouched.
    for (let v = floorVertices; v < mesh.positions.length / 3; v++)
      if (mesh.positions[v * 3 + 1] > 0.011) expect(Array.from(snapped.positions.subarray(v * 3, v * 3 + 3))).toEqual(Array.from(mesh.positions.subarray(v * 3, v * 3 + 3)));
    expect(snapped.indices).toBe(mesh.indices);
    expect(moved).toBeGreaterThanOrEqual(floorVertices);
  });

  it("is not found in fewer than three points", () => {
    expect(dominantPlane(new Float32Array([0, 0, 0, 1, 0, 0]), 0.1)).toBeNull();
  });
});
