/**
 * The scan's mesh export: COLMAP's Poisson mesher writes a binary .ply (vertices with colour, faces);
 * we turn it into a GLB with vertex colours and normals, and check the GLB's structure before it is
 * published (chunks, buffer bounds, accessor sizes, index range, finite values). Pure.
 */
import { isInsideRegion, type RegionOfInterest } from "./dense-points";
import { parsePlyHeader } from "~/formats/ply";

const TYPE_SIZES: Record<string, number> = {
  char: 1, int8: 1, uchar: 1, uint8: 1, short: 2, int16: 2, ushort: 2, uint16: 2,
  int: 4, int32: 4, uint: 4, uint32: 4, float: 4, float32: 4, double: 8, float64: 8,
};

function readValue(view: DataView, offset: number, type: string): number {
  switch (type) {
    case "char": case "int8": return view.getInt8(offset);
    case "uchar": case "uint8": return view.getUint8(offset);
    case "short": case "int16": return view.getInt16(offset, true);
    case "ushort": case "uint16": return view.getUint16(offset, true);
    case "int": case "int32": return view.getInt32(offset, true);
    case "uint": case "uint32": return view.getUint32(offset, true);
    case "float": case "float32": return view.getFloat32(offset, true);
    case "double": case "float64": return view.getFloat64(offset, true);
    default: throw new Error(`unknown ply type ${type}`);
  }
}

export interface Mesh {
  positions: Float32Array;
  colors: Uint8Array | null;
  indices: Uint32Array;
}

/**
 * Reads a binary little-endian mesh .ply (vertex x/y/z[/red/green/blue], face vertex_indices lists; polygons
 * fanned), with the per-vertex `value` COLMAP's Poisson mesher writes (the sampling density) when present.
 */
export function readMeshPly(bytes: Uint8Array): Mesh & { densities: Float32Array | null } {
  const header = parsePlyHeader(bytes);
  if (header.format !== "binary_little_endian") throw new Error(`mesh ply format ${header.format} is not supported`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = header.bodyOffset;
  let positions = new Float32Array(0);
  let colors: Uint8Array | null = null;
  let densities: Float32Array | null = null;
  const indices: number[] = [];
  for (const element of header.elements) {
    if (element.name === "vertex") {
      positions = new Float32Array(element.count * 3);
      const names = element.properties.map((p) => p.name);
      const hasColor = ["red", "green", "blue"].every((c) => names.includes(c));
      colors = hasColor ? new Uint8Array(element.count * 3) : null;
      densities = names.includes("value") ? new Float32Array(element.count) : null;
      for (let i = 0; i < element.count; i++) {
        for (const property of element.properties) {
          if (property.list) throw new Error("list properties on vertices are not supported");
          const value = readValue(view, offset, property.type);
          offset += TYPE_SIZES[property.type];
          const axis = ["x", "y", "z"].indexOf(property.name);
          if (axis >= 0) positions[i * 3 + axis] = value;
          const channel = ["red", "green", "blue"].indexOf(property.name);
          if (channel >= 0 && colors) colors[i * 3 + channel] = value;
          if (property.name === "value" && densities) densities[i] = value;
        }
      }
    } else {
      for (let i = 0; i < element.count; i++) {
        for (const property of element.properties) {
          if (property.list) {
            const n = readValue(view, offset, property.list.countType);
            offset += TYPE_SIZES[property.list.countType];
            const polygon: number[] = [];
            for (let k = 0; k < n; k++) {
              polygon.push(readValue(view, offset, property.type));
              offset += TYPE_SIZES[property.type];
            }
            if (element.name === "face" && (property.name === "vertex_indices" || property.name === "vertex_index")) {
              for (let k = 1; k + 1 < polygon.length; k++) indices.push(polygon[0], polygon[k], polygon[k + 1]);
            }
          } else offset += TYPE_SIZES[property.type];
        }
      }
    }
  }
  return { positions, colors, densities, indices: Uint32Array.from(indices) };
}

/** Area-weighted vertex normals. */
export function vertexNormals(positions: Float32Array, indices: Uint32Array): Float32Array {
  const normals = new Float32Array(positions.length);
  for (let t = 0; t + 2 < indices.length; t += 3) {
    const [a, b, c] = [indices[t] * 3, indices[t + 1] * 3, indices[t + 2] * 3];
    const e1 = [positions[b] - positions[a], positions[b + 1] - positions[a + 1], positions[b + 2] - positions[a + 2]];
    const e2 = [positions[c] - positions[a], positions[c + 1] - positions[a + 1], positions[c + 2] - positions[a + 2]];
    const n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
    for (const v of [a, b, c]) for (let k = 0; k < 3; k++) normals[v + k] += n[k];
  }
  for (let v = 0; v < normals.length; v += 3) {
    const length = Math.hypot(normals[v], normals[v + 1], normals[v + 2]);
    if (length > 0) for (let k = 0; k < 3; k++) normals[v + k] /= length;
    else normals[v + 1] = 1;
  }
  return normals;
}

const pad4 = (n: number) => (n + 3) & ~3;

/** A GLB (glTF 2.0 binary) of one mesh: positions, normals, optional vertex colours, 32-bit indices. */
export function encodeGlb(mesh: Mesh, { generator = "Scanroom scan worker" } = {}): Buffer {
  const vertexCount = mesh.positions.length / 3;
  const normals = vertexNormals(mesh.positions, mesh.indices);
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < mesh.positions.length; i++) {
    min[i % 3] = Math.min(min[i % 3], mesh.positions[i]);
    max[i % 3] = Math.max(max[i % 3], mesh.positions[i]);
  }
  const parts: Array<{ bytes: Uint8Array; target?: number }> = [
    { bytes: new Uint8Array(mesh.positions.buffer, mesh.positions.byteOffset, mesh.positions.byteLength), target: 34962 },
    { bytes: new Uint8Array(normals.buffer), target: 34962 },
  ];
  if (mesh.colors) {
    // Normalised unsigned bytes, padded to 4 bytes per vertex (glTF's vertex stride alignment).
    const rgba = new Uint8Array(vertexCount * 4);
    for (let i = 0; i < vertexCount; i++) {
      rgba.set(mesh.colors.subarray(i * 3, i * 3 + 3), i * 4);
      rgba[i * 4 + 3] = 255;
    }
    parts.push({ bytes: rgba, target: 34962 });
  }
  parts.push({ bytes: new Uint8Array(mesh.indices.buffer, mesh.indices.byteOffset, mesh.indices.byteLength), target: 34963 });
  const bufferViews: object[] = [];
  let length = 0;
  for (const part of parts) {
    bufferViews.push({ buffer: 0, byteOffset: length, byteLength: part.bytes.length, target: part.target });
    length = pad4(length + part.bytes.length);
  }
  const accessors: object[] = [
    { bufferView: 0, componentType: 5126, count: vertexCount, type: "VEC3", min, max },
    { bufferView: 1, componentType: 5126, count: vertexCount, type: "VEC3" },
  ];
  const attributes: Record<string, number> = { POSITION: 0, NORMAL: 1 };
  if (mesh.colors) {
    accessors.push({ bufferView: 2, componentType: 5121, normalized: true, count: vertexCount, type: "VEC4" });
    attributes.COLOR_0 = 2;
  }
  accessors.push({ bufferView: parts.length - 1, componentType: 5125, count: mesh.indices.length, type: "SCALAR" });
  const json = {
    asset: { version: "2.0", generator },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0, name: "scan" }],
    meshes: [{ name: "scan", primitives: [{ attributes, indices: accessors.length - 1, material: 0, mode: 4 }] }],
    materials: [{ name: "vertex colour", pbrMetallicRoughness: { baseColorFactor: [1, 1, 1, 1], metallicFactor: 0, roughnessFactor: 1 }, doubleSided: true }],
    accessors,
    bufferViews,
    buffers: [{ byteLength: length }],
  };
  const jsonBytes = Buffer.from(JSON.stringify(json), "utf8");
  const jsonChunk = Buffer.alloc(pad4(jsonBytes.length), 0x20);
  jsonBytes.copy(jsonChunk);
  const binChunk = Buffer.alloc(length);
  parts.forEach((part, i) => binChunk.set(part.bytes, (bufferViews[i] as { byteOffset: number }).byteOffset));
  const total = 12 + 8 + jsonChunk.length + 8 + binChunk.length;
  const header = Buffer.alloc(12);
  header.writeUInt32LE(0x46546c67, 0);
  header.writeUInt32LE(2, 4);
  header.writeUInt32LE(total, 8);
  const chunkHeader = (size: number, type: number) => {
    const b = Buffer.alloc(8);
    b.writeUInt32LE(size, 0);
    b.writeUInt32LE(type, 4);
    return b;
  };
  return Buffer.concat([header, chunkHeader(jsonChunk.length, 0x4e4f534a), jsonChunk, chunkHeader(binChunk.length, 0x004e4942), binChunk]);
}

const COMPONENT_SIZES: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const TYPE_COMPONENTS: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };

/**
 * Structural checks of a GLB we made (what a glTF validator would reject first): header and chunk
 * types and lengths, asset version 2.0, every buffer view inside the BIN chunk, every accessor inside
 * its view, POSITION with min/max and finite floats, indices in range. Throws with the reason.
 */
export function validateGlb(bytes: Uint8Array): { vertices: number; triangles: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 20 || view.getUint32(0, true) !== 0x46546c67) throw new Error("not a GLB (magic)");
  if (view.getUint32(4, true) !== 2) throw new Error("GLB version is not 2");
  if (view.getUint32(8, true) !== bytes.length) throw new Error("GLB length field does not match the file");
  const jsonLength = view.getUint32(12, true);
  if (view.getUint32(16, true) !== 0x4e4f534a || jsonLength % 4 !== 0) throw new Error("first chunk is not an aligned JSON chunk");
  const gltf = JSON.parse(Buffer.from(bytes.subarray(20, 20 + jsonLength)).toString("utf8"));
  if (gltf.asset?.version !== "2.0") throw new Error("asset.version is not 2.0");
  const binStart = 20 + jsonLength;
  const binLength = view.getUint32(binStart, true);
  if (view.getUint32(binStart + 4, true) !== 0x004e4942) throw new Error("second chunk is not BIN");
  if (binStart + 8 + binLength !== bytes.length) throw new Error("BIN chunk length does not match the file");
  if ((gltf.buffers?.[0]?.byteLength ?? -1) > binLength) throw new Error("buffer 0 is longer than the BIN chunk");
  const bin = new DataView(bytes.buffer, bytes.byteOffset + binStart + 8, binLength);
  const views: Array<{ byteOffset?: number; byteLength: number }> = gltf.bufferViews ?? [];
  for (const v of views) if ((v.byteOffset ?? 0) + v.byteLength > binLength) throw new Error("a buffer view lies outside the BIN chunk");
  const accessors: Array<{ bufferView: number; byteOffset?: number; componentType: number; count: number; type: string; min?: number[]; max?: number[] }> =
    gltf.accessors ?? [];
  const values = (index: number): number[] => {
    const a = accessors[index];
    const v = views[a.bufferView];
    const size = COMPONENT_SIZES[a.componentType];
    const components = TYPE_COMPONENTS[a.type];
    if (!v || !size || !components) throw new Error(`accessor ${index} is malformed`);
    if ((a.byteOffset ?? 0) + a.count * size * components > v.byteLength) throw new Error(`accessor ${index} overruns its buffer view`);
    const start = (v.byteOffset ?? 0) + (a.byteOffset ?? 0);
    const out: number[] = new Array(a.count * components);
    for (let i = 0; i < out.length; i++) {
      const at = start + i * size;
      out[i] =
        a.componentType === 5126 ? bin.getFloat32(at, true)
        : a.componentType === 5125 ? bin.getUint32(at, true)
        : a.componentType === 5123 ? bin.getUint16(at, true)
        : a.componentType === 5121 ? bin.getUint8(at)
        : a.componentType === 5122 ? bin.getInt16(at, true)
        : bin.getInt8(at);
    }
    return out;
  };
  let vertices = 0;
  let triangles = 0;
  for (const mesh of gltf.meshes ?? []) {
    for (const primitive of mesh.primitives ?? []) {
      const position = primitive.attributes?.POSITION;
      if (position === undefined) throw new Error("a primitive has no POSITION");
      const p = accessors[position];
      if (p.type !== "VEC3" || p.componentType !== 5126 || !p.min || !p.max) throw new Error("POSITION must be float VEC3 with min and max");
      const positions = values(position);
      if (positions.some((x) => !Number.isFinite(x))) throw new Error("POSITION has a non-finite value");
      for (const [name, index] of Object.entries(primitive.attributes as Record<string, number>)) {
        if (accessors[index].count !== p.count) throw new Error(`${name} count differs from POSITION's`);
        if (name !== "POSITION") values(index);
      }
      if (primitive.indices !== undefined) {
        const indices = values(primitive.indices);
        if (indices.some((i) => i >= p.count)) throw new Error("an index points past the last vertex");
        triangles += indices.length / 3;
      }
      vertices += p.count;
    }
  }
  if (vertices === 0) throw new Error("the GLB has no vertices");
  return { vertices, triangles };
}

/** Keeps the faces `keepFace` accepts, and only the vertices they use (renumbered in first-use order). */
export function keepFaces(mesh: Mesh, keepFace: (face: number) => boolean): Mesh {
  const remap = new Int32Array(mesh.positions.length / 3).fill(-1);
  const indices: number[] = [];
  let next = 0;
  for (let f = 0; f < mesh.indices.length / 3; f++) {
    if (!keepFace(f)) continue;
    for (let k = 0; k < 3; k++) {
      const v = mesh.indices[f * 3 + k];
      if (remap[v] < 0) remap[v] = next++;
      indices.push(remap[v]);
    }
  }
  const positions = new Float32Array(next * 3);
  const colors = mesh.colors ? new Uint8Array(next * 3) : null;
  for (let v = 0; v < remap.length; v++) {
    if (remap[v] < 0) continue;
    positions.set(mesh.positions.subarray(v * 3, v * 3 + 3), remap[v] * 3);
    colors?.set(mesh.colors!.subarray(v * 3, v * 3 + 3), remap[v] * 3);
  }
  return { positions, colors, indices: Uint32Array.from(indices) };
}

/**
 * Keeps the triangles whose three corners lie inside the region of interest (its box, isInsideRegion), and
 * only the vertices they use.
 */
export function cropMesh(mesh: Mesh, region: RegionOfInterest): Mesh {
  const inside = new Uint8Array(mesh.positions.length / 3);
  for (let i = 0; i < inside.length; i++) inside[i] = isInsideRegion(region, mesh.positions[i * 3], mesh.positions[i * 3 + 1], mesh.positions[i * 3 + 2]) ? 1 : 0;
  return keepFaces(mesh, (f) => inside[mesh.indices[f * 3]] === 1 && inside[mesh.indices[f * 3 + 1]] === 1 && inside[mesh.indices[f * 3 + 2]] === 1);
}
