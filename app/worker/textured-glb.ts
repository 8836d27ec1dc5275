/**
 * The textured scan mesh as a GLB: sr-texture writes an OBJ (positions, one UV per face corner) and a
 * PNG atlas; we turn it into glTF's frame (COLMAP's y down / z forward → y up / z to the viewer by
 * negating y and z), give every face its own three vertices (UVs differ per face), flat normals, and one
 * unlit material whose base colour is the atlas (a baked scan already holds its lighting). Pure.
 */

export interface TexturedMesh {
  /** xyz per vertex. */
  positions: Float32Array;
  /** Three vertex indices per face. */
  indices: Uint32Array;
  /** uv per face corner (glTF convention, (0,0) top-left of the image): 6 numbers per face. */
  cornerUvs: Float32Array;
}

/** Reads sr-texture's OBJ: `v x y z`, `vt u v`, `f v/vt v/vt v/vt` (1-based). Throws on anything malformed. */
export function parseTexturedObj(text: string): TexturedMesh {
  const positions: number[] = [];
  const uvs: number[] = [];
  const indices: number[] = [];
  const cornerUvs: number[] = [];
  for (const line of text.split("\n")) {
    const parts = line.trim().split(/\s+/);
    if (parts[0] === "v") positions.push(...parts.slice(1, 4).map(Number));
    else if (parts[0] === "vt") uvs.push(...parts.slice(1, 3).map(Number));
    else if (parts[0] === "f") {
      if (parts.length !== 4) throw new Error(`obj: only triangles are supported: ${line}`);
      for (const corner of parts.slice(1)) {
        const [v, t] = corner.split("/").map(Number);
        if (!Number.isInteger(v) || !Number.isInteger(t) || v < 1 || t < 1 || t * 2 > uvs.length) throw new Error(`obj: bad face ${line}`);
        indices.push(v - 1);
        cornerUvs.push(uvs[(t - 1) * 2], uvs[(t - 1) * 2 + 1]);
      }
    }
  }
  const vertexCount = positions.length / 3;
  if (!positions.every(Number.isFinite) || !cornerUvs.every(Number.isFinite)) throw new Error("obj: non-finite values");
  if (indices.some((i) => i >= vertexCount)) throw new Error("obj: face index out of range");
  return { positions: Float32Array.from(positions), indices: Uint32Array.from(indices), cornerUvs: Float32Array.from(cornerUvs) };
}

function pad4(length: number): number {
  return (length + 3) & ~3;
}

/** Encodes the mesh with its PNG atlas, turned from COLMAP's frame to glTF's. */
export function encodeTexturedGlb(mesh: TexturedMesh, png: Uint8Array, { generator = "Scanroom scan worker" } = {}): Buffer {
  const faceCount = mesh.indices.length / 3;
  const positions = new Float32Array(faceCount * 9);
  const normals = new Float32Array(faceCount * 9);
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let f = 0; f < faceCount; f++) {
    const corners = [0, 1, 2].map((k) => {
      const v = mesh.indices[f * 3 + k];
      return [mesh.positions[v * 3], -mesh.positions[v * 3 + 1], -mesh.positions[v * 3 + 2]];
    });
    const [a, b, c] = corners;
    const e1 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    const e2 = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    const n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
    const length = Math.hypot(n[0], n[1], n[2]);
    const unit = length > 0 ? n.map((x) => x / length) : [0, 1, 0];
    for (let k = 0; k < 3; k++) {
      for (let axis = 0; axis < 3; axis++) {
        positions[f * 9 + k * 3 + axis] = corners[k][axis];
        normals[f * 9 + k * 3 + axis] = unit[axis];
        min[axis] = Math.min(min[axis], corners[k][axis]);
        max[axis] = Math.max(max[axis], corners[k][axis]);
      }
    }
  }
  // Negating two axes keeps the winding (a rotation), so front faces stay front faces.
  const parts = [
    { bytes: new Uint8Array(positions.buffer), target: 34962 as number | undefined },
    { bytes: new Uint8Array(normals.buffer), target: 34962 as number | undefined },
    { bytes: new Uint8Array(mesh.cornerUvs.buffer, mesh.cornerUvs.byteOffset, mesh.cornerUvs.byteLength), target: 34962 as number | undefined },
    { bytes: png, target: undefined },
  ];
  let offset = 0;
  const bufferViews = parts.map((part) => {
    const view: Record<string, number> = { buffer: 0, byteOffset: offset, byteLength: part.bytes.byteLength };
    if (part.target) view.target = part.target;
    offset = pad4(offset + part.bytes.byteLength);
    return view;
  });
  const vertexCount = faceCount * 3;
  const json = {
    asset: { version: "2.0", generator },
    extensionsUsed: ["KHR_materials_unlit"],
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0, name: "scan" }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0, NORMAL: 1, TEXCOORD_0: 2 }, material: 0, mode: 4 }] }],
    materials: [
      {
        name: "scan",
        pbrMetallicRoughness: { baseColorTexture: { index: 0 }, metallicFactor: 0, roughnessFactor: 1 },
        extensions: { KHR_materials_unlit: {} },
      },
    ],
    textures: [{ source: 0, sampler: 0 }],
    samplers: [{ magFilter: 9729, minFilter: 9987, wrapS: 33071, wrapT: 33071 }],
    images: [{ bufferView: 3, mimeType: "image/png" }],
    accessors: [
      { bufferView: 0, componentType: 5126, count: vertexCount, type: "VEC3", min, max },
      { bufferView: 1, componentType: 5126, count: vertexCount, type: "VEC3" },
      { bufferView: 2, componentType: 5126, count: vertexCount, type: "VEC2" },
    ],
    bufferViews,
    buffers: [{ byteLength: offset }],
  };
  const jsonBytes = Buffer.from(JSON.stringify(json), "utf8");
  const jsonLength = pad4(jsonBytes.length);
  const total = 12 + 8 + jsonLength + 8 + offset;
  const glb = Buffer.alloc(total, 0);
  glb.writeUInt32LE(0x46546c67, 0);
  glb.writeUInt32LE(2, 4);
  glb.writeUInt32LE(total, 8);
  glb.writeUInt32LE(jsonLength, 12);
  glb.writeUInt32LE(0x4e4f534a, 16);
  jsonBytes.copy(glb, 20);
  glb.fill(0x20, 20 + jsonBytes.length, 20 + jsonLength);
  const binStart = 20 + jsonLength;
  glb.writeUInt32LE(offset, binStart);
  glb.writeUInt32LE(0x004e4942, binStart + 4);
  parts.forEach((part, i) => glb.set(part.bytes, binStart + 8 + bufferViews[i].byteOffset));
  return glb;
}
