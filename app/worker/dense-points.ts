/**
 * The dense stage's points (issue 14): COLMAP's fused.ply (x y z nx ny nz red green blue, binary) and its
 * fused.ply.vis (per point, the images that saw it), the region of interest found from them, and the crop to it. Pure.
 */
import { parsePlyHeader } from "~/formats/ply";

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
 * What to keep of a scan (issue 38 item 5): a box in the upright model frame (y down, colmap-model.ts
 * uprightTransform) — its vertical side along y, its horizontal sides turned about y — around where the
 * fused points are well seen, whatever the capture: an orbit, a facade, a walk around a room or down a street.
 * dense/roi.json holds it; `center` and `radius` are kept for readers that want a centre (the opening view)
 * or only know the older sphere (the sphere holds the box).
 */
export interface RegionOfInterest {
  /** The box's centre in the model frame. */
  center: Vec3;
  /** Half the box's diagonal: the sphere around `center` that holds the box. */
  radius: number;
  /** The box's edge directions in the model frame (unit vectors): a horizontal one, the vertical (y), the other horizontal. */
  axes: [Vec3, Vec3, Vec3];
  /** The box's faces along its axes: a point p is inside when min[k] ≤ p · axes[k] ≤ max[k] for each k. */
  min: Vec3;
  max: Vec3;
}

/** A capture camera: its centre and viewing direction (its +z axis) in the model frame. */
export interface CaptureCamera {
  centre: Vec3;
  axis: Vec3;
}

/**
 * The region's rule. Each bound is a share of the well-seen points or of the box, never a camera distance:
 * the cameras may circle the subject, face one wall, or stand in the middle of what they capture.
 */
export const REGION_RULE = {
  /** Each face of the box leaves out this share of the points along its axis: sparse far-away points fall outside. */
  trimShare: 0.01,
  /** The trimmed box is widened on every side by this share of its largest side, taking back a surface's edges. */
  margin: 0.1,
  /** A point with fewer well-seen points than this in its 3×3×3 cells (about 4 points a cell on a surface) is a floater. */
  minNeighbours: 4,
  /** Points the box is sized from (a fixed stride over the fused points). */
  maxSamples: 200_000,
  /** Points the horizontal turn is chosen on, and the turns tried (over a quarter turn). */
  maxTurnSamples: 20_000,
  turnSteps: 30,
};

const round6 = (v: number) => Math.round(v * 1e6) / 1e6 + 0;

/** Whether (x, y, z) lies in front of at least one camera (on the side its axis points to). */
export function isInFrontOfAnyCamera(cameras: CaptureCamera[], x: number, y: number, z: number): boolean {
  for (const { centre, axis } of cameras) if ((x - centre[0]) * axis[0] + (y - centre[1]) * axis[1] + (z - centre[2]) * axis[2] > 0) return true;
  return false;
}

/**
 * The points a region is sized from, as x y z triples: at most `maxSamples` of the fused points (a fixed
 * stride), those seen by at least `minViews` images and in front of at least one camera.
 */
export function wellSeenPoints(input: { positions: Float32Array; visibility: Uint32Array | null; cameras: CaptureCamera[]; minViews: number; maxSamples?: number }): Float64Array {
  const { positions, visibility, cameras, minViews } = input;
  const count = positions.length / 3;
  const stride = Math.max(1, Math.ceil(count / (input.maxSamples ?? REGION_RULE.maxSamples)));
  const out: number[] = [];
  for (let i = 0; i < count; i += stride) {
    if (visibility && visibility[i] < minViews) continue;
    const x = positions[i * 3], y = positions[i * 3 + 1], z = positions[i * 3 + 2];
    if (Number.isFinite(x + y + z) && isInFrontOfAnyCamera(cameras, x, y, z)) out.push(x, y, z);
  }
  return Float64Array.from(out);
}

/** The values at `share` and 1 − `share` of the way through `values` sorted (nearest rank). */
export function trimmedRange(values: Float64Array, share: number): [number, number] {
  const sorted = Float64Array.from(values).sort();
  const last = sorted.length - 1;
  return [sorted[Math.floor(share * last)], sorted[Math.ceil((1 - share) * last)]];
}

/**
 * The points (x y z triples) that have at least `minNeighbours` points, themselves included, in their
 * 3×3×3 cells of a grid whose cells hold about four points where the points lie on a surface as wide as
 * their trimmed extent (cell side 2·extent/√n). Isolated floaters and sparse far-away points drop out.
 */
export function withoutIsolatedPoints(points: Float64Array, minNeighbours = REGION_RULE.minNeighbours): Float64Array {
  const n = points.length / 3;
  if (n === 0) return points;
  const ranges = [0, 1, 2].map((a) => trimmedRange(points.filter((_, i) => i % 3 === a), REGION_RULE.trimShare));
  const extent = Math.max(...ranges.map(([lo, hi]) => hi - lo), 1e-9);
  const cell = extent / Math.min(256, Math.max(8, Math.round(Math.sqrt(n) / 2)));
  const cells = new Float64Array(n * 3);
  const lowest = [Infinity, Infinity, Infinity], highest = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < n * 3; i++) {
    cells[i] = Math.floor(points[i] / cell);
    lowest[i % 3] = Math.min(lowest[i % 3], cells[i]);
    highest[i % 3] = Math.max(highest[i % 3], cells[i]);
  }
  // One number per cell (exact below 2^53), with a border of one cell for the neighbours.
  const size = [0, 1, 2].map((a) => highest[a] - lowest[a] + 3);
  const key = (x: number, y: number, z: number) => x - lowest[0] + 1 + size[0] * (y - lowest[1] + 1 + size[1] * (z - lowest[2] + 1));
  const counts = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const k = key(cells[i * 3], cells[i * 3 + 1], cells[i * 3 + 2]);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const cx = cells[i * 3], cy = cells[i * 3 + 1], cz = cells[i * 3 + 2];
    let neighbours = 0;
    for (let dz = -1; dz <= 1; dz++) for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) neighbours += counts.get(key(cx + dx, cy + dy, cz + dz)) ?? 0;
    if (neighbours >= minNeighbours) out.push(points[i * 3], points[i * 3 + 1], points[i * 3 + 2]);
  }
  return Float64Array.from(out);
}

/** The box's axes when its horizontal sides are turned by `angle` (radians) about the vertical (y). */
export function turnedAxes(angle: number): [Vec3, Vec3, Vec3] {
  const c = Math.cos(angle), s = Math.sin(angle);
  return [[c, 0, s], [0, 1, 0], [-s, 0, c]];
}

/**
 * The turn about the vertical (radians, in [0, π/2)) at which the trimmed horizontal extent of the points
 * covers the least area: a facade or a street at any heading gets a box along it, not across it.
 */
export function tightestTurn(points: Float64Array): number {
  const n = points.length / 3;
  const stride = Math.max(1, Math.ceil(n / REGION_RULE.maxTurnSamples));
  const xs: number[] = [], zs: number[] = [];
  for (let i = 0; i < n; i += stride) {
    xs.push(points[i * 3]);
    zs.push(points[i * 3 + 2]);
  }
  const u = new Float64Array(xs.length), w = new Float64Array(xs.length);
  let best = 0, bestArea = Infinity;
  for (let step = 0; step < REGION_RULE.turnSteps; step++) {
    const angle = (step / REGION_RULE.turnSteps) * (Math.PI / 2);
    const c = Math.cos(angle), s = Math.sin(angle);
    for (let i = 0; i < xs.length; i++) {
      u[i] = c * xs[i] + s * zs[i];
      w[i] = -s * xs[i] + c * zs[i];
    }
    const [u0, u1] = trimmedRange(u, REGION_RULE.trimShare), [w0, w1] = trimmedRange(w, REGION_RULE.trimShare);
    // A hair's preference for smaller turns keeps the choice stable when the footprint is round.
    const area = (u1 - u0) * (w1 - w0) * (1 + 1e-6 * step);
    if (area < bestArea) {
      bestArea = area;
      best = angle;
    }
  }
  return best;
}

/**
 * The region of interest: the box, turned about the vertical to fit tightest, around the trimmed extent
 * (REGION_RULE.trimShare from each face) of the fused points that were seen by at least `minViews` images,
 * lie in front of a camera and are not isolated, widened by REGION_RULE.margin of its largest side. Null
 * when no point qualifies.
 */
export function regionOfInterest(input: { positions: Float32Array; visibility: Uint32Array | null; cameras: CaptureCamera[]; minViews: number }): RegionOfInterest | null {
  const points = withoutIsolatedPoints(wellSeenPoints(input));
  const n = points.length / 3;
  if (n === 0) return null;
  const axes = turnedAxes(tightestTurn(points));
  const ranges = axes.map((axis) => {
    const along = new Float64Array(n);
    for (let i = 0; i < n; i++) along[i] = axis[0] * points[i * 3] + axis[1] * points[i * 3 + 1] + axis[2] * points[i * 3 + 2];
    return trimmedRange(along, REGION_RULE.trimShare);
  });
  const margin = REGION_RULE.margin * Math.max(...ranges.map(([lo, hi]) => hi - lo));
  const min = ranges.map(([lo]) => round6(lo - margin)) as Vec3;
  const max = ranges.map(([, hi]) => round6(hi + margin)) as Vec3;
  const middle = [0, 1, 2].map((k) => (min[k] + max[k]) / 2);
  const center = [0, 1, 2].map((j) => round6(axes[0][j] * middle[0] + axes[1][j] * middle[1] + axes[2][j] * middle[2])) as Vec3;
  const radius = round6(Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) / 2);
  return { center, radius, axes: axes.map((axis) => axis.map(round6)) as [Vec3, Vec3, Vec3], min, max };
}

/** Whether (x, y, z) lies inside the region's box (every reader of dense/roi.json crops by this test). */
export function isInsideRegion(region: RegionOfInterest, x: number, y: number, z: number): boolean {
  for (let k = 0; k < 3; k++) {
    const a = region.axes[k];
    const along = a[0] * x + a[1] * y + a[2] * z;
    if (!(along >= region.min[k] && along <= region.max[k])) return false;
  }
  return true;
}

/**
 * The dense points to keep: seen by at least `minViews` images, inside the region, and in front of at least
 * one camera (nothing can be measured behind every camera; a box around a walk in a courtyard holds the
 * cameras' own surroundings).
 */
export function cropPoints(input: { points: DensePoints; visibility: Uint32Array | null; region: RegionOfInterest; cameras: CaptureCamera[]; minViews: number }): DensePoints {
  const { points, visibility, region, cameras, minViews } = input;
  const keep: number[] = [];
  for (let i = 0; i < points.count; i++) {
    if (visibility && visibility[i] < minViews) continue;
    const x = points.positions[i * 3], y = points.positions[i * 3 + 1], z = points.positions[i * 3 + 2];
    if (isInsideRegion(region, x, y, z) && isInFrontOfAnyCamera(cameras, x, y, z)) keep.push(i);
  }
  const out: DensePoints = { count: keep.length, positions: new Float32Array(keep.length * 3), normals: new Float32Array(keep.length * 3), colors: new Uint8Array(keep.length * 3) };
  keep.forEach((source, i) => {
    out.positions.set(points.positions.subarray(source * 3, source * 3 + 3), i * 3);
    out.normals.set(points.normals.subarray(source * 3, source * 3 + 3), i * 3);
    out.colors.set(points.colors.subarray(source * 3, source * 3 + 3), i * 3);
  });
  return out;
}
