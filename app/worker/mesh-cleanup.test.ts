import { describe, expect, it } from "vitest";
import type { Mesh } from "./mesh-glb";
import { removeSmallComponents, simplifyToBudget } from "./mesh-cleanup";

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
