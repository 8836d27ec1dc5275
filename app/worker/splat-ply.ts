/**
 * Gaussian-splat .ply files (the 3DGS binary layout, SH degree 0, as shared/data/splats/guitar.ply):
 * the preview splat built from sparse points, its writer, and a reader that validates what we
 * publish (every property a finite float, the count read back). Pure.
 */
import type { ColmapPoints } from "./colmap-model";
import { nearestNeighbours, neighbourScales } from "./point-geometry";

/** Zeroth-order spherical-harmonic constant: colour = 0.5 + SH_C0 · f_dc. */
export const SH_C0 = 0.28209479177387814;

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

export const colorToShDc = (value255: number) => (value255 / 255 - 0.5) / SH_C0;
export const logit = (p: number) => Math.log(p / (1 - p));

export interface PreviewOptions {
  /** Points whose mean reprojection error is above this are left out (px). */
  maxError?: number;
  /** Opacity of every splat (0–1). */
  opacity?: number;
  /** The splat's radius relative to the RMS distance to its 3 nearest neighbours. */
  scaleFactor?: number;
}

/**
 * A preview splat from a sparse model: one isotropic gaussian per reliable point, coloured by the
 * point's RGB (as the SH DC term), sized by the distance to its nearest neighbours, identity rotation.
 */
export function previewSplatsFromPoints(points: ColmapPoints, options: PreviewOptions = {}): Splats {
  const { maxError = 2, opacity = 0.9, scaleFactor = 0.7 } = options;
  const keep: number[] = [];
  for (let i = 0; i < points.count; i++) if (points.errors[i] <= maxError) keep.push(i);
  const positions = new Float64Array(keep.length * 3);
  keep.forEach((source, i) => positions.set(points.positions.subarray(source * 3, source * 3 + 3), i * 3));
  const scales = neighbourScales(nearestNeighbours(positions, 3), keep.length);
  const width = SPLAT_PROPERTIES.length;
  const data = new Float32Array(keep.length * width);
  const floor = 1e-6;
  keep.forEach((source, i) => {
    const o = i * width;
    data[o] = positions[i * 3];
    data[o + 1] = positions[i * 3 + 1];
    data[o + 2] = positions[i * 3 + 2];
    data[o + 3] = colorToShDc(points.colors[source * 3]);
    data[o + 4] = colorToShDc(points.colors[source * 3 + 1]);
    data[o + 5] = colorToShDc(points.colors[source * 3 + 2]);
    data[o + 6] = logit(opacity);
    data[o + 7] = 1; // rotation quaternion (w, x, y, z): identity
    const logScale = Math.log(Math.max(floor, scales[i] * scaleFactor));
    data[o + 11] = logScale;
    data[o + 12] = logScale;
    data[o + 13] = logScale;
  });
  return { count: keep.length, data };
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

export interface PlyHeader {
  format: string;
  /** Elements in file order with their properties (name and type; lists have `list` set). */
  elements: Array<{ name: string; count: number; properties: Array<{ name: string; type: string; list?: { countType: string } }> }>;
  /** Byte offset of the body. */
  bodyOffset: number;
}

export function parsePlyHeader(bytes: Uint8Array): PlyHeader {
  const head = Buffer.from(bytes.subarray(0, Math.min(bytes.length, 64 * 1024))).toString("latin1");
  const end = head.indexOf("end_header\n");
  if (!head.startsWith("ply\n") || end < 0) throw new Error("not a .ply file (no ply header)");
  const lines = head.slice(0, end).split("\n").map((l) => l.trim());
  const header: PlyHeader = { format: "", elements: [], bodyOffset: end + "end_header\n".length };
  for (const line of lines) {
    const parts = line.split(/\s+/);
    if (parts[0] === "format") header.format = parts[1];
    else if (parts[0] === "element") header.elements.push({ name: parts[1], count: Number(parts[2]), properties: [] });
    else if (parts[0] === "property") {
      const element = header.elements.at(-1);
      if (!element) throw new Error("a ply property before any element");
      if (parts[1] === "list") element.properties.push({ name: parts[4], type: parts[3], list: { countType: parts[2] } });
      else element.properties.push({ name: parts[2], type: parts[1] });
    }
  }
  return header;
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

export interface DenseSplatOptions {
  /** Opacity of every splat (0–1). */
  opacity?: number;
  /** In-plane radius relative to the RMS distance to the 3 nearest neighbours. */
  scaleFactor?: number;
  /** Thickness along the normal relative to the in-plane radius. */
  flatness?: number;
}

/** Unit quaternion (w, x, y, z) turning the local z axis onto the unit vector n. */
export function quaternionFromZTo(nx: number, ny: number, nz: number): [number, number, number, number] {
  const w = 1 + nz;
  if (w < 1e-9) return [0, 1, 0, 0]; // n = −z: half a turn about x
  const norm = Math.hypot(w, ny, nx);
  return [w / norm, -ny / norm, nx / norm, 0];
}

/**
 * The dense splat: one flat gaussian per dense point, its thin axis (scale_2) along the point's
 * normal, its in-plane size from the spacing to its nearest neighbours, its colour as the SH DC term.
 */
export function denseSplatsFromPoints(
  positions: ArrayLike<number>,
  normals: ArrayLike<number>,
  colors: ArrayLike<number>,
  options: DenseSplatOptions = {},
): Splats {
  const { opacity = 0.8, scaleFactor = 0.7, flatness = 0.1 } = options;
  const count = Math.floor(positions.length / 3);
  const scales = neighbourScales(nearestNeighbours(positions, 3), count);
  const width = SPLAT_PROPERTIES.length;
  const data = new Float32Array(count * width);
  const floor = 1e-6;
  for (let i = 0; i < count; i++) {
    const o = i * width;
    data[o] = positions[i * 3];
    data[o + 1] = positions[i * 3 + 1];
    data[o + 2] = positions[i * 3 + 2];
    for (let c = 0; c < 3; c++) data[o + 3 + c] = colorToShDc(colors[i * 3 + c]);
    data[o + 6] = logit(opacity);
    let nx = normals[i * 3];
    let ny = normals[i * 3 + 1];
    let nz = normals[i * 3 + 2];
    const length = Math.hypot(nx, ny, nz);
    if (Number.isFinite(length) && length > 1e-12) {
      nx /= length;
      ny /= length;
      nz /= length;
    } else {
      [nx, ny, nz] = [0, 0, 1];
    }
    data.set(quaternionFromZTo(nx, ny, nz), o + 7);
    const radius = Math.max(floor, scales[i] * scaleFactor);
    data[o + 11] = Math.log(radius);
    data[o + 12] = Math.log(radius);
    data[o + 13] = Math.log(Math.max(floor, radius * flatness));
  }
  return { count, data };
}
