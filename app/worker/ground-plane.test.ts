import { describe, expect, it } from "vitest";
import { courtyardRig, facadeRig, orbitRig, roomRig, type CaptureRig } from "../../tests/setup/capture-rigs";
import { regionOfInterest } from "./dense-points";
import { dominantPlane, groundPlane, refinePlane, snapToPlane, tiltFromLevel, type Plane } from "./ground-plane";
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

  it("is refitted to measured points of the ground, and the floor's vertices go onto the measured plane", () => {
    // The surface's floor sits 0.01 above the true ground (y = 0) and is tilted 1°; structure-from-motion
    // points lie on the true ground (±0.001) and on the ball (which must not pull the plane).
    const { mesh, floorVertices } = floorAndBall();
    const tilt = (1 * Math.PI) / 180;
    const surface: Mesh = { ...mesh, positions: Float32Array.from(mesh.positions) };
    for (let v = 0; v < floorVertices; v++) surface.positions[v * 3 + 1] = 0.01 + Math.tan(tilt) * surface.positions[v * 3];
    const points: number[] = [];
    let state = 3;
    const random = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
    for (let i = 0; i < 400; i++) points.push(random(), 0.001 * random(), random());
    for (let i = 0; i < 100; i++) {
      const a = Math.PI * random(), b = Math.PI * random();
      points.push(0.3 * Math.cos(a) * Math.cos(b), 0.3 + 0.3 * Math.sin(b), 0.3 * Math.sin(a) * Math.cos(b));
    }
    const found = dominantPlane(surface.positions, 0.02)!;
    const measured = refinePlane(found.plane, Float32Array.from(points), 0.03)!;
    const angle = (Math.acos(Math.min(1, Math.abs(measured.plane.normal[1]))) * 180) / Math.PI;
    console.warn(`surface floor at d ${found.plane.d.toFixed(4)}; refitted to ${measured.points} points: d ${measured.plane.d.toExponential(2)} (bound 1e-3), tilt ${angle.toFixed(3)}° (bound 0.1°)`);
    expect(Math.abs(measured.plane.d)).toBeLessThan(1e-3);
    expect(angle).toBeLessThan(0.1);
    expect(measured.points).toBeGreaterThanOrEqual(350);
    expect(measured.points).toBeLessThan(450);

    const { mesh: snapped, snapped: moved } = snapToPlane(surface, found.plane, 0.02, measured.plane);
    let worst = 0;
    for (let v = 0; v < floorVertices; v++) worst = Math.max(worst, Math.abs(snapped.positions[v * 3 + 1]));
    expect(worst).toBeLessThan(2e-3);
    expect(moved).toBeGreaterThanOrEqual(floorVertices);
  });

  it("is not refitted to points that lie elsewhere, or to too few", () => {
    const plane = { normal: [0, 1, 0] as [number, number, number], d: 0 };
    // Points on a wall (x = 0.01) near the plane's line: within reach, but the refit would turn 90°.
    const wall: number[] = [];
    for (let i = 0; i < 100; i++) wall.push(0.01, (i % 10) * 0.002, Math.floor(i / 10) * 0.1);
    expect(refinePlane(plane, Float32Array.from(wall), 0.05)).toBeNull();
    expect(refinePlane(plane, Float32Array.from([0, 0, 0, 1, 0, 0, 0, 0, 1]), 0.05)).toBeNull();
  });

  it("is not found in fewer than three points", () => {
    expect(dominantPlane(new Float32Array([0, 0, 0, 1, 0, 0]), 0.1)).toBeNull();
  });
});

// Issue 38 item 5: the ground of captures that are not orbits. The rigs' surface points stand in for the mesh's
// vertices (0.005 of noise; the reach is 0.03), and the scene's centre is their region of interest's, as in the
// mesh stage.
describe("the ground plane of a capture", () => {
  const reach = 0.03;
  const surfaceOf = (rig: CaptureRig) => rig.positions.subarray(0, rig.surface * 3);
  const centreOf = (rig: CaptureRig) => regionOfInterest({ positions: rig.positions, visibility: rig.visibility, cameras: rig.cameras, minViews: 3 })!.center;
  /** Share of the points of the rig's parts called `name` within the reach of `plane`. */
  const shareOn = (rig: CaptureRig, name: string, plane: Plane) => {
    let near = 0, all = 0;
    for (const part of rig.parts.filter((p) => p.name === name))
      for (let i = part.start; i < part.end; i++) {
        all++;
        const p = rig.positions.subarray(i * 3, i * 3 + 3);
        if (Math.abs(plane.normal[0] * p[0] + plane.normal[1] * p[1] + plane.normal[2] * p[2] - plane.d) <= reach) near++;
      }
    return near / all;
  };

  it("is an orbit's floor, under the object", () => {
    const rig = orbitRig();
    const found = groundPlane({ positions: surfaceOf(rig), threshold: reach, centre: centreOf(rig) })!;
    const onFloor = shareOn(rig, "ground", found.plane), onObject = shareOn(rig, "object", found.plane);
    console.warn(`[ground] orbit: tilt ${tiltFromLevel(found.plane).toFixed(2)}° (bound 1°), ${(onFloor * 100).toFixed(1)} % of the floor on it (bound ≥ 95 %), ${(onObject * 100).toFixed(1)} % of the object (bound ≤ 5 %), share ${found.share.toFixed(3)} (the mesh stage snaps from 0.2)`);
    expect(tiltFromLevel(found.plane)).toBeLessThan(1);
    expect(onFloor).toBeGreaterThanOrEqual(0.95);
    expect(onObject).toBeLessThanOrEqual(0.05);
    expect(found.share).toBeGreaterThanOrEqual(0.2);
  });

  for (const [makeRig, why] of [
    [facadeRig, "a facade's wall (more points than its pavement)"],
    [courtyardRig, "a courtyard's walls (the floor holds 4 % of the points)"],
    [roomRig, "a room's ceiling (more points than its floor) or walls"],
  ] as const) {
    const rig = makeRig();
    it(`is never ${why}: the ${rig.name}'s ground, level and below its centre`, () => {
      const dominant = dominantPlane(surfaceOf(rig), reach)!;
      const found = groundPlane({ positions: surfaceOf(rig), threshold: reach, centre: centreOf(rig) })!;
      const tilt = tiltFromLevel(found.plane);
      const onGround = shareOn(rig, "ground", found.plane), onWalls = shareOn(rig, "wall", found.plane);
      const onCeiling = rig.parts.some((p) => p.name === "ceiling") ? shareOn(rig, "ceiling", found.plane) : 0;
      console.warn(
        `[ground] ${rig.name}: the plane holding the most points is ${tiltFromLevel(dominant.plane).toFixed(1)}° from level (share ${dominant.share.toFixed(3)}); ` +
          `the ground is ${tilt.toFixed(2)}° from level (bound 1°) with ${(onGround * 100).toFixed(1)} % of the ground's points (bound ≥ 95 %), ` +
          `${(onWalls * 100).toFixed(2)} % of the walls' and ${(onCeiling * 100).toFixed(2)} % of the ceiling's (bound ≤ 2 %), share ${found.share.toFixed(3)}`,
      );
      expect(tilt).toBeLessThan(1);
      expect(onGround).toBeGreaterThanOrEqual(0.95);
      expect(onWalls).toBeLessThanOrEqual(0.02);
      expect(onCeiling).toBeLessThanOrEqual(0.02);
    });
  }

  it("is not found on a facade's wall alone", () => {
    const rig = facadeRig();
    const wall = rig.parts.find((p) => p.name === "wall")!;
    const found = groundPlane({ positions: rig.positions.subarray(wall.start * 3, wall.end * 3), threshold: reach, centre: centreOf(rig) });
    console.warn(`[ground] facade wall alone: ${found ? `a plane ${tiltFromLevel(found.plane).toFixed(1)}° from level with share ${found.share.toFixed(4)}` : "none"} (bound: none)`);
    expect(found).toBeNull();
  });

  it("refuses a level plane above the centre and a steep one below it", () => {
    const centre: [number, number, number] = [0, -1, 0];
    // 2,000 points spread over 2 × 2 of a plane through (0, 0.5, 0) tilted `deg` about z (y points down: the centre is above it).
    const plane = (deg: number) => {
      let state = 9;
      const random = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
      const c = Math.cos((deg * Math.PI) / 180), s = Math.sin((deg * Math.PI) / 180);
      return Float32Array.from(Array.from({ length: 2000 }, () => [random(), random()]).flatMap(([u, w]) => [c * u, s * u + 0.5, w]));
    };
    const level = groundPlane({ positions: plane(0), threshold: 0.01, centre })!;
    expect(tiltFromLevel(level.plane)).toBeLessThan(1e-3);
    expect(level.share).toBe(1);
    // The same plane above the centre is a ceiling.
    expect(groundPlane({ positions: plane(0), threshold: 0.01, centre: [0, 2, 0] })).toBeNull();
    // Tilted 30° it is no ground (nor is a level cut through it); 20° is.
    expect(groundPlane({ positions: plane(30), threshold: 0.01, centre })).toBeNull();
    const slope = groundPlane({ positions: plane(20), threshold: 0.01, centre })!;
    console.warn(`[ground] a 20° slope: found ${tiltFromLevel(slope.plane).toFixed(3)}° from level (bound 20 ± 0.01°), share ${slope.share}`);
    expect(Math.abs(tiltFromLevel(slope.plane) - 20)).toBeLessThan(0.01);
  });
});

