/**
 * Writing and checking the .ply files the worker publishes (Node: Buffer): a 3DGS splat in the standard binary
 * layout (SH degree 0, as shared/data/splats/guitar.ply), the reader that validates one, and the oriented point
 * cloud COLMAP's fused.ply layout uses. The splats made from points are in app/worker/splats-from-points.ts.
 */
import { parsePlyHeader } from "./ply";

export const SPLAT_PROPERTIES = [
  "x",
  "y",
  "z",
  "f_dc_0",
  "f_dc_1",
  "f_dc_2",
  "opacity",
  "rot_0",
  "rot_1",
  "rot_2",
  "rot_3",
  "scale_0",
  "scale_1",
  "scale_2",
] as const;

export interface Splats {
  count: number;
  /** count × SPLAT_PROPERTIES.length floats, in that order (opacity as a logit, scales as logs). */
  data: Float32Array;
}

export function encodeSplatPly(splats: Splats): Buffer {
  const header =
    "ply\nformat binary_little_endian 1.0\n" +
    `element vertex ${splats.count}\n` +
    SPLAT_PROPERTIES.map((name) => `property float ${name}\n`).join("") +
    "end_header\n";
  const body = Buffer.alloc(splats.data.length * 4);
  for (let i = 0; i < splats.data.length; i++) body.writeFloatLE(splats.data[i], i * 4);
  return Buffer.concat([Buffer.from(header, "ascii"), body]);
}

/**
 * Reads a 3DGS .ply back and checks it: binary little-endian, one vertex element whose properties
 * are all floats and include every one the viewer needs, a body of exactly count × stride bytes,
 * no NaN, and no infinite value except in opacity (a logit: +∞ is fully opaque, as real trained
 * scenes such as shared/data/splats/guitar.ply have). Throws with the reason; returns the splat count.
 */
export function validateSplatPly(bytes: Uint8Array): { count: number; properties: string[] } {
  const header = parsePlyHeader(bytes);
  if (header.format !== "binary_little_endian") throw new Error(`ply format ${header.format}, not binary_little_endian`);
  const vertex = header.elements.find((e) => e.name === "vertex");
  if (!vertex || header.elements.length !== 1) throw new Error("a splat ply has exactly one element, vertex");
  const names = vertex.properties.map((p) => p.name);
  for (const required of SPLAT_PROPERTIES) if (!names.includes(required)) throw new Error(`missing property ${required}`);
  if (vertex.properties.some((p) => p.type !== "float" || p.list)) throw new Error("every splat property must be a float");
  const stride = vertex.properties.length * 4;
  const bodyLength = bytes.length - header.bodyOffset;
  if (bodyLength !== vertex.count * stride) {
    throw new Error(`body has ${bodyLength} bytes, ${vertex.count} splats need ${vertex.count * stride}`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset + header.bodyOffset, bodyLength);
  const opacity = names.indexOf("opacity");
  const width = names.length;
  for (let i = 0; i < vertex.count * width; i++) {
    const value = view.getFloat32(i * 4, true);
    if (Number.isNaN(value) || (!Number.isFinite(value) && i % width !== opacity)) {
      throw new Error(`a non-finite ${names[i % width]} at splat ${Math.floor(i / width)}`);
    }
  }
  return { count: vertex.count, properties: names };
}

/** A point cloud with normals and colours in the layout COLMAP's fused.ply uses (the Poisson mesher's input). */
export function encodeOrientedPointsPly(positions: ArrayLike<number>, normals: ArrayLike<number>, colors: ArrayLike<number>): Buffer {
  const n = Math.floor(positions.length / 3);
  const header =
    "ply\nformat binary_little_endian 1.0\n" +
    `element vertex ${n}\n` +
    "property float x\nproperty float y\nproperty float z\n" +
    "property float nx\nproperty float ny\nproperty float nz\n" +
    "property uchar red\nproperty uchar green\nproperty uchar blue\nend_header\n";
  const stride = 27;
  const body = Buffer.alloc(n * stride);
  for (let i = 0; i < n; i++) {
    const o = i * stride;
    for (let a = 0; a < 3; a++) {
      body.writeFloatLE(positions[i * 3 + a], o + a * 4);
      body.writeFloatLE(normals[i * 3 + a], o + 12 + a * 4);
      body.writeUInt8(colors[i * 3 + a], o + 24 + a);
    }
  }
  return Buffer.concat([Buffer.from(header, "ascii"), body]);
}
