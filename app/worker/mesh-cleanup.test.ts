import { describe, expect, it } from "vitest";
import type { Mesh } from "./mesh-glb";
import { medianSpacing, removeSmallComponents, removeUnsupportedFaces, simplifyToBudget, SUPPORT_IN_SPACINGS, supportOptions, trimByDensity } from "./mesh-cleanup";

/** A UV sphere of radius r at `center` with `rings` × `segments` quads (two triangles each). */
function sphere(r: number, center: [number, number, number], rings: number, segments: number): Mesh {
  const positions: number[] = [];
  const indices: number[] = [];
  for (let i = 0; i <= rings; i++) {
    const theta = (Math.PI * i) / rings;
    for (let j = 0; j < segments; j++) {
      const phi = (2 * Math.PI * j) / segments;
      positions.push(center[0] + r * Math.sin(theta) * Math.cos(phi), center[1] + r * Math.cos(theta), center[2] + r * Math.sin(theta) * Math.sin(phi));
    }
  }
  for (let i = 0; i < rings; i++) {
    for (let j = 0; j < segments; j++) {
      const a = i * segments + j, b = i * segments + ((j + 1) % segments), c = a + segments, d = b + segments;
      indices.push(a, c, b, b, c, d);
    }
  }
  return { positions: Float32Array.from(positions), colors: null, indices: Uint32Array.from(indices) };
}

function merge(a: Mesh, b: Mesh): Mesh {
  const offset = a.positions.length / 3;
  return {
    positions: Float32Array.from([...a.positions, ...b.positions]),
    colors: null,
    indices: Uint32Array.from([...a.indices, ...Array.from(b.indices, (i) => i + offset)]),
  };
}

describe("removeSmallComponents", () => {
  it("drops small floating pieces and keeps the subject whole", () => {
    const subject = sphere(1, [0, 0, 0], 40, 80); // 6,400 faces
    const floater = sphere(0.05, [3, 0, 0], 4, 8); // 64 faces
    const { mesh, removedComponents, removedFaces } = removeSmallComponents(merge(subject, floater), 0.02);
    expect(removedComponents).toBe(1);
    expect(removedFaces).toBe(64);
    expect(mesh.indices.length).toBe(subject.indices.length);
    expect(mesh.positions.length).toBe(subject.positions.length);
    // Every vertex left lies on the unit sphere: nothing of the floater survived.
    for (let v = 0; v < mesh.positions.length; v += 3) expect(Math.hypot(mesh.positions[v], mesh.positions[v + 1], mesh.positions[v + 2])).toBeCloseTo(1, 5);
  });
});

describe("simplifyToBudget", () => {
  it("leaves a mesh within the budget as it is", async () => {
    const mesh = sphere(1, [0, 0, 0], 10, 20);
    expect((await simplifyToBudget(mesh, 1_000)).mesh).toBe(mesh);
  });

  it("brings a dense sphere to the budget while staying on its surface", async () => {
    const dense = sphere(1, [0, 0, 0], 200, 400); // 160,000 faces
    const { mesh, error } = await simplifyToBudget(dense, 5_000);
    const faces = mesh.indices.length / 3;
    expect(faces).toBeLessThanOrEqual(5_000);
    expect(faces).toBeGreaterThan(2_500);
    // Vertices are kept from the input (quadric collapse onto existing vertices): all on the sphere; the
    // surface between them is what the budget costs — the centres of the faces deviate by at most 1 % of r.
    let worst = 0;
    for (let f = 0; f < faces; f++) {
      const c = [0, 1, 2].map((axis) => (mesh.positions[mesh.indices[f * 3] * 3 + axis] + mesh.positions[mesh.indices[f * 3 + 1] * 3 + axis] + mesh.positions[mesh.indices[f * 3 + 2] * 3 + axis]) / 3);
      worst = Math.max(worst, 1 - Math.hypot(c[0], c[1], c[2]));
    }
    console.warn(`simplified 160,000 → ${faces} faces; worst face-centre deviation ${(worst * 100).toFixed(3)} % of r (bound 1 %); simplifier error ${error.toFixed(5)}`);
    expect(worst).toBeLessThan(0.01);
  });
});

describe("removeUnsupportedFaces", () => {
  /** A unit square in the z = 0 plane as an n × n grid of quads. */
  function grid(n: number): Mesh {
    const positions: number[] = [];
    const indices: number[] = [];
    for (let y = 0; y <= n; y++) for (let x = 0; x <= n; x++) positions.push(x / n, y / n, 0);
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++) {
        const a = y * (n + 1) + x, b = a + 1, c = a + n + 1, d = c + 1;
        indices.push(a, b, c, b, d, c);
      }
    }
    return { positions: Float32Array.from(positions), colors: null, indices: Uint32Array.from(indices) };
  }
  let seed = 7;
  const noise = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5) * 0.004;
  /** Points 0.01 apart on the unit square where `measured(x, y)`, a little noisy in depth. */
  function measuredPoints(measured: (x: number, y: number) => boolean): Float32Array {
    const points: number[] = [];
    for (let y = 0; y <= 100; y++) for (let x = 0; x <= 100; x++) if (measured(x / 100, y / 100)) points.push(x / 100, y / 100, noise());
    return Float32Array.from(points);
  }
  const centreOf = (mesh: Mesh, f: number) => [0, 1, 2].map((a) => [0, 1, 2].reduce((sum, k) => sum + mesh.positions[mesh.indices[f * 3 + k] * 3 + a], 0) / 3);
  const options = supportOptions;
  const near = SUPPORT_IN_SPACINGS.near;

  it("cuts the surface where the measured points end (Poisson's continuation past an edge)", () => {
    const cloud = measuredPoints((x) => x <= 0.5);
    const spacing = medianSpacing(cloud);
    expect(spacing).toBeCloseTo(0.01, 2);
    const mesh = grid(50);
    const { mesh: kept, removedFaces } = removeUnsupportedFaces(mesh, cloud, options(spacing));
    const keptFaces = kept.indices.length / 3;
    console.warn(`[support trim] edge: kept ${keptFaces} of ${mesh.indices.length / 3} faces, removed ${removedFaces} (points on x ≤ 0.5, near ${(near * spacing).toFixed(3)})`);
    expect(keptFaces + removedFaces).toBe(mesh.indices.length / 3);
    let measuredHalf = 0;
    for (let f = 0; f < mesh.indices.length / 3; f++) if (centreOf(mesh, f)[0] <= 0.5) measuredHalf++;
    // All of the measured half is kept, and nothing reaches further than `near` past it.
    expect(keptFaces).toBeGreaterThanOrEqual(measuredHalf);
    for (let f = 0; f < keptFaces; f++) expect(centreOf(kept, f)[0]).toBeLessThanOrEqual(0.5 + near * spacing);
  });

  it("keeps the surface that fills a hole the points enclose (an unmatched textureless patch)", () => {
    const cloud = measuredPoints((x, y) => Math.hypot(x - 0.5, y - 0.5) > 0.08);
    const mesh = grid(50);
    const { mesh: kept, removedFaces, filledFaces } = removeUnsupportedFaces(mesh, cloud, options(medianSpacing(cloud)));
    console.warn(`[support trim] hole: removed ${removedFaces}, kept ${filledFaces} faces without a point near them`);
    expect(filledFaces).toBeGreaterThan(0);
    expect(removedFaces).toBe(0);
    expect(kept).toBe(mesh);
  });

  it("removes the closed-off back of a one-sided capture: a sphere measured on its upper half only", () => {
    const ball = sphere(1, [0, 0, 0], 60, 120);
    const points: number[] = [];
    const n = 12_000;
    for (let i = 0; i < n; i++) {
      const y = (i + 0.5) / n; // y is up in sphere(); Fibonacci points on the upper hemisphere
      const r = Math.sqrt(1 - y * y);
      const phi = i * Math.PI * (3 - Math.sqrt(5));
      points.push(r * Math.cos(phi), y, r * Math.sin(phi));
    }
    const cloud = Float32Array.from(points);
    const spacing = medianSpacing(cloud);
    const { mesh: kept, removedFaces } = removeUnsupportedFaces(ball, cloud, options(spacing));
    const keptFaces = kept.indices.length / 3;
    let lowest = Infinity;
    let upperFaces = 0;
    for (let f = 0; f < ball.indices.length / 3; f++) if (centreOf(ball, f)[1] >= 0) upperFaces++;
    for (let f = 0; f < keptFaces; f++) lowest = Math.min(lowest, centreOf(kept, f)[1]);
    console.warn(`[support trim] sphere: kept ${keptFaces} faces (${upperFaces} on the measured half), removed ${removedFaces}; lowest kept face centre y = ${lowest.toFixed(3)} (spacing ${spacing.toFixed(4)})`);
    expect(keptFaces).toBeGreaterThanOrEqual(upperFaces);
    expect(lowest).toBeGreaterThan(-near * spacing - 0.03);
  });
});

describe("trimByDensity", () => {
  /** A sphere sampled densely on its upper half: the mesher's density falls off below the equator (octree levels). */
  function halfMeasuredSphere(offset: number) {
    const mesh = sphere(1, [0, 0, 0], 40, 80);
    const densities = new Float32Array(mesh.positions.length / 3);
    for (let v = 0; v < densities.length; v++) {
      const y = mesh.positions[v * 3 + 1];
      // 7 levels where measured, falling by up to 4 levels towards the unmeasured pole.
      densities[v] = offset + (y >= 0 ? 7 : 7 + 4 * y);
    }
    return { mesh, densities };
  }

  it("cuts where the density falls two levels under the median, whatever the scan's absolute density", () => {
    const cuts: number[] = [];
    for (const offset of [0, -3, 4]) {
      const { mesh, densities } = halfMeasuredSphere(offset);
      const { mesh: trimmed, trim, removedFaces } = trimByDensity(mesh, densities, 2);
      // Median 7 + offset (more than half the vertices are measured): the trim sits two levels under it.
      expect(trim).toBeCloseTo(5 + offset, 5);
      // Kept: everything above y = -0.5 (where the density is 5 + offset), nothing much below it.
      let lowest = Infinity;
      for (let v = 0; v < trimmed.positions.length / 3; v++) lowest = Math.min(lowest, trimmed.positions[v * 3 + 1]);
      cuts.push(lowest);
      expect(lowest).toBeGreaterThan(-0.6);
      expect(lowest).toBeLessThan(-0.4);
      expect(removedFaces).toBe(mesh.indices.length / 3 - trimmed.indices.length / 3);
    }
    console.warn(`density trim on a half-measured sphere at three absolute densities: lowest kept y ${cuts.map((y) => y.toFixed(3)).join(", ")} (the cut is at y = -0.5)`);
    // A fixed trim would have cut all of the sparser scan away and none of the denser one.
    expect(new Set(cuts.map((y) => y.toFixed(3))).size).toBe(1);
  });

  it("refuses densities that are not one per vertex", () => {
    const mesh = sphere(1, [0, 0, 0], 4, 8);
    expect(() => trimByDensity(mesh, new Float32Array(3), 2)).toThrow(/one density per vertex/);
  });
});
