import { describe, expect, it } from "vitest";
import type { RegionOfInterest } from "./dense-points";
import { cropMesh, encodeGlb, readMeshPly, validateGlb, vertexNormals } from "./mesh-glb";

/** The binary .ply COLMAP's Poisson mesher writes: vertices with a density value and colour, faces as lists. */
function poissonPly(vertices: Array<[number, number, number, number, number, number]>, faces: number[][]) {
  const header =
    "ply\nformat binary_little_endian 1.0\ncomment made by a test\n" +
    `element vertex ${vertices.length}\nproperty float x\nproperty float y\nproperty float z\nproperty float value\n` +
    "property uchar red\nproperty uchar green\nproperty uchar blue\n" +
    `element face ${faces.length}\nproperty list uchar int vertex_indices\nend_header\n`;
  const parts: Buffer[] = [Buffer.from(header, "latin1")];
  for (const [x, y, z, r, g, b] of vertices) {
    const v = Buffer.alloc(19);
    v.writeFloatLE(x, 0);
    v.writeFloatLE(y, 4);
    v.writeFloatLE(z, 8);
    v.writeFloatLE(1.5, 12);
    v.writeUInt8(r, 16);
    v.writeUInt8(g, 17);
    v.writeUInt8(b, 18);
    parts.push(v);
  }
  for (const face of faces) {
    const f = Buffer.alloc(1 + 4 * face.length);
    f.writeUInt8(face.length, 0);
    face.forEach((index, i) => f.writeInt32LE(index, 1 + 4 * i));
    parts.push(f);
  }
  return new Uint8Array(Buffer.concat(parts));
}

const square = poissonPly(
  [
    [0, 0, 0, 255, 0, 0],
    [1, 0, 0, 0, 255, 0],
    [1, 1, 0, 0, 0, 255],
    [0, 1, 0, 9, 9, 9],
  ],
  [[0, 1, 2, 3]],
);

describe("the mesh export", () => {
  it("reads a Poisson mesh .ply, fanning polygons into triangles", () => {
    const mesh = readMeshPly(square);
    expect(Array.from(mesh.positions)).toEqual([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]);
    expect(Array.from(mesh.colors!)).toEqual([255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9]);
    expect(Array.from(mesh.indices)).toEqual([0, 1, 2, 0, 2, 3]);
    // The mesher's sampling density per vertex (its `value`), which the mesh stage trims by.
    expect(Array.from(mesh.densities!)).toEqual([1.5, 1.5, 1.5, 1.5]);
    expect(Array.from(vertexNormals(mesh.positions, mesh.indices))).toEqual([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1]);
  });

  it("writes a GLB that passes the structural checks, with positions, normals, colours and indices", () => {
    const glb = encodeGlb(readMeshPly(square));
    expect(validateGlb(glb)).toEqual({ vertices: 4, triangles: 2 });
    const json = JSON.parse(Buffer.from(glb.subarray(20, 20 + glb.readUInt32LE(12))).toString("utf8"));
    expect(json.asset.version).toBe("2.0");
    expect(json.meshes[0].primitives[0].attributes).toEqual({ POSITION: 0, NORMAL: 1, COLOR_0: 2 });
    expect(json.accessors[0]).toMatchObject({ min: [0, 0, 0], max: [1, 1, 0], count: 4 });
    expect(glb.length % 4).toBe(0);
  });

  it("rejects a GLB with an index past the last vertex, a bad length or a NaN position", () => {
    const mesh = readMeshPly(square);
    expect(() => validateGlb(encodeGlb({ ...mesh, indices: Uint32Array.from([0, 1, 7]) }))).toThrow(/index/);
    const glb = encodeGlb(mesh);
    const short = Buffer.from(glb.subarray(0, glb.length - 4));
    expect(() => validateGlb(short)).toThrow(/length/);
    const nan = encodeGlb({ ...mesh, positions: Float32Array.from([Number.NaN, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]) });
    expect(() => validateGlb(nan)).toThrow(/non-finite|min/);
  });
});

describe("cropMesh", () => {
  it("keeps the triangles inside the region's box and only the vertices they use", () => {
    // A box turned 30° about y, from (-1, -1, -1) to (2, 1, 1) along its axes; vertices given in box coordinates.
    const c = Math.cos(Math.PI / 6), s = Math.sin(Math.PI / 6);
    const region: RegionOfInterest = { center: [0.5 * c, 0, 0.5 * s], radius: Math.hypot(3, 2, 2) / 2, axes: [[c, 0, s], [0, 1, 0], [-s, 0, c]], min: [-1, -1, -1], max: [2, 1, 1] };
    const inBox = (a: number, b: number, d: number) => [a * c - d * s, b, a * s + d * c];
    const mesh = {
      // 0–2 inside; 3 just outside the +axes[0] face; 4 outside the box but inside its sphere (1.6 from the centre, radius 2.06).
      positions: Float32Array.from([...inBox(0, 0, 0), ...inBox(1.9, 0, 0), ...inBox(0, 0.9, 0.9), ...inBox(2.05, 0, 0), ...inBox(0.5, 0, 1.6)]),
      colors: Uint8Array.of(1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5),
      indices: Uint32Array.of(0, 1, 2, 1, 3, 2, 0, 2, 4),
    };
    const cropped = cropMesh(mesh, region);
    expect(Array.from(cropped.indices)).toEqual([0, 1, 2]);
    expect(cropped.positions.length).toBe(9);
    expect(Array.from(cropped.colors!)).toEqual([1, 1, 1, 2, 2, 2, 3, 3, 3]);
  });
});
