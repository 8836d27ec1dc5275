/**
 * The dense stage's points (issue 14): COLMAP's fused.ply (x y z nx ny nz red green blue, binary) and its
 * fused.ply.vis (per point, the images that saw it), and the crop to what the cameras look at. Pure.
 */
import { parsePlyHeader } from "./splat-ply";

export interface DensePoints {
  count: number;
  positions: Float32Array;
  normals: Float32Array;
  colors: Uint8Array;
}

/** Reads COLMAP's fused.ply layout (the one encodeOrientedPointsPly writes). */
export function readDensePly(bytes: Uint8Array): DensePoints {
  const header = parsePlyHeader(bytes);
  if (header.format !== "binary_little_endian") throw new Error(`dense ply format ${header.format} is not supported`);
  const vertex = header.elements.find((e) => e.name === "vertex");
  if (!vertex) throw new Error("the dense ply has no vertices");
  const names = vertex.properties.map((p) => `${p.type} ${p.name}`).join(",");
  const expected = "float x,float y,float z,float nx,float ny,float nz,uchar red,uchar green,uchar blue";
  if (names !== expected) throw new Error(`unexpected dense ply layout: ${names}`);
  const count = vertex.count;
  const view = new DataView(bytes.buffer, bytes.byteOffset + header.bodyOffset, count * 27);
  const positions = new Float32Array(count * 3), normals = new Float32Array(count * 3), colors = new Uint8Array(count * 3);
  for (let i = 0; i < count; i++) {
    const o = i * 27;
    for (let a = 0; a < 3; a++) {
      positions[i * 3 + a] = view.getFloat32(o + a * 4, true);
      normals[i * 3 + a] = view.getFloat32(o + 12 + a * 4, true);
      colors[i * 3 + a] = view.getUint8(o + 24 + a);
    }
  }
  return { count, positions, normals, colors };
}

/** fused.ply.vis: uint64 point count, then per point a uint32 count and that many uint32 image indices. Returns the counts. */
export function readVisibilityCounts(bytes: Uint8Array): Uint32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = Number(view.getBigUint64(0, true));
  const out = new Uint32Array(count);
  let offset = 8;
  for (let i = 0; i < count; i++) {
    if (offset + 4 > bytes.byteLength) throw new Error("the visibility file is truncated");
    const n = view.getUint32(offset, true);
    out[i] = n;
    offset += 4 + 4 * n;
  }
  return out;
}

type Vec3 = [number, number, number];

/**
 * The point the cameras look at: least squares nearest to every camera's optical axis (the subject of
 * an orbit or of a one-sided capture). Null when the axes are (nearly) parallel.
 */
export function convergencePoint(cameras: Array<{ centre: Vec3; axis: Vec3 }>): Vec3 | null {
  const A = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  const b = [0, 0, 0];
  for (const { centre, axis } of cameras) {
    const n = Math.hypot(...axis);
    const d = axis.map((v) => v / n);
    for (let r = 0; r < 3; r++)
      for (let c = 0; c < 3; c++) {
        const m = (r === c ? 1 : 0) - d[r] * d[c];
        A[r * 3 + c] += m;
        b[r] += m * centre[c];
      }
  }
  const det =
    A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6]) + A[2] * (A[3] * A[7] - A[4] * A[6]);
  if (!(Math.abs(det) > 1e-9 * cameras.length ** 3)) return null;
  const solve = (col: number) => {
    const M = [...A];
    for (let r = 0; r < 3; r++) M[r * 3 + col] = b[r];
    return (M[0] * (M[4] * M[8] - M[5] * M[7]) - M[1] * (M[3] * M[8] - M[5] * M[6]) + M[2] * (M[3] * M[7] - M[4] * M[6])) / det;
  };
  return [solve(0), solve(1), solve(2)];
}

export interface RegionOfInterest {
  center: Vec3;
  radius: number;
}

/**
 * What to keep of a scan: a sphere around where the cameras look, reaching `share` of the way from there
 * to the median camera (background farther out is not what the capture was of).
 */
export function regionOfInterest(cameras: Array<{ centre: Vec3; axis: Vec3 }>, fallbackCenter: Vec3, share = 0.6): RegionOfInterest {
  const center = convergencePoint(cameras) ?? fallbackCenter;
  const distances = cameras.map(({ centre }) => Math.hypot(centre[0] - center[0], centre[1] - center[1], centre[2] - center[2])).sort((a, b) => a - b);
  const median = distances.length ? distances[distances.length >> 1] : 1;
  return { center: center.map((v) => Math.round(v * 1e6) / 1e6) as Vec3, radius: Math.round(share * median * 1e6) / 1e6 };
}

/** Points inside the region and seen by at least `minViews` images. */
export function cropPoints(points: DensePoints, visibility: Uint32Array | null, roi: RegionOfInterest, minViews: number): DensePoints {
  const keep: number[] = [];
  for (let i = 0; i < points.count; i++) {
    if (visibility && visibility[i] < minViews) continue;
    const dx = points.positions[i * 3] - roi.center[0], dy = points.positions[i * 3 + 1] - roi.center[1], dz = points.positions[i * 3 + 2] - roi.center[2];
    if (Math.hypot(dx, dy, dz) <= roi.radius) keep.push(i);
  }
  const out: DensePoints = { count: keep.length, positions: new Float32Array(keep.length * 3), normals: new Float32Array(keep.length * 3), colors: new Uint8Array(keep.length * 3) };
  keep.forEach((source, i) => {
    out.positions.set(points.positions.subarray(source * 3, source * 3 + 3), i * 3);
    out.normals.set(points.normals.subarray(source * 3, source * 3 + 3), i * 3);
    out.colors.set(points.colors.subarray(source * 3, source * 3 + 3), i * 3);
  });
  return out;
}
