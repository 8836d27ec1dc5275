/**
 * How well a reconstructed surface matches a known one (issue 14's checks): both given as triangle
 * soups in one frame (9 floats per triangle). Pure, so its own unit test can hold it to shapes with
 * known answers (tests/setup/surface-metrics.test.ts).
 */
export type Vec3 = [number, number, number];

export interface ViewCamera {
  position: Vec3;
  target: Vec3;
  /** Vertical field of view, degrees. */
  fovDeg: number;
  width: number;
  height: number;
}

/** A small deterministic generator, so the same surfaces always give the same figures. */
function lcg(seed: number) {
  let state = seed >>> 0;
  return () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 4294967296);
}

/** Points spread over the triangles about `spacing` apart (at least one per triangle), with each triangle's normal. */
export function sampleSurface(triangles: Float32Array, spacing: number, seed = 7): { points: Float32Array; normals: Float32Array } {
  const random = lcg(seed);
  const points: number[] = [];
  const normals: number[] = [];
  for (let t = 0; t < triangles.length; t += 9) {
    const a = triangles.subarray(t, t + 3), b = triangles.subarray(t + 3, t + 6), c = triangles.subarray(t + 6, t + 9);
    const e1 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], e2 = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    const n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
    const twiceArea = Math.hypot(n[0], n[1], n[2]);
    if (!(twiceArea > 0)) continue;
    const count = Math.max(1, Math.round(twiceArea / 2 / (spacing * spacing)));
    for (let k = 0; k < count; k++) {
      let u = random(),
        v = random();
      if (u + v > 1) {
        u = 1 - u;
        v = 1 - v;
      }
      for (let i = 0; i < 3; i++) points.push(a[i] + u * e1[i] + v * e2[i]);
      normals.push(n[0] / twiceArea, n[1] / twiceArea, n[2] / twiceArea);
    }
  }
  return { points: Float32Array.from(points), normals: Float32Array.from(normals) };
}

const safeRatio = (a: number, b: number) => (b === 0 ? 0 : a / b);

/** Distance from p to the triangle abc (closest point by regions, Ericson's Real-Time Collision Detection §5.1.5). */
export function pointTriangleDistance(p: ArrayLike<number>, tri: ArrayLike<number>, o = 0): number {
  const ax = tri[o], ay = tri[o + 1], az = tri[o + 2];
  const abx = tri[o + 3] - ax, aby = tri[o + 4] - ay, abz = tri[o + 5] - az;
  const acx = tri[o + 6] - ax, acy = tri[o + 7] - ay, acz = tri[o + 8] - az;
  const apx = p[0] - ax, apy = p[1] - ay, apz = p[2] - az;
  const d1 = abx * apx + aby * apy + abz * apz, d2 = acx * apx + acy * apy + acz * apz;
  const at = (s: number, t: number) => Math.hypot(apx - s * abx - t * acx, apy - s * aby - t * acy, apz - s * abz - t * acz);
  if (d1 <= 0 && d2 <= 0) return at(0, 0);
  const bpx = apx - abx, bpy = apy - aby, bpz = apz - abz;
  const d3 = abx * bpx + aby * bpy + abz * bpz, d4 = acx * bpx + acy * bpy + acz * bpz;
  if (d3 >= 0 && d4 <= d3) return at(1, 0);
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return at(safeRatio(d1, d1 - d3), 0);
  const cpx = apx - acx, cpy = apy - acy, cpz = apz - acz;
  const d5 = abx * cpx + aby * cpy + abz * cpz, d6 = acx * cpx + acy * cpy + acz * cpz;
  if (d6 >= 0 && d5 <= d6) return at(0, 1);
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return at(0, safeRatio(d2, d2 - d6));
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const w = safeRatio(d4 - d3, d4 - d3 + (d5 - d6));
    return at(1 - w, w);
  }
  const sum = va + vb + vc;
  // A degenerate triangle (all corners on a line): its nearest corner is near enough for these figures.
  if (!(Math.abs(sum) > 1e-30)) return Math.min(at(0, 0), at(1, 0), at(0, 1));
  return at(vb / sum, vc / sum);
}

/** Nearest-point queries within a bounded radius, on a uniform hash grid. */
export class PointGrid {
  private readonly cells = new Map<string, number[]>();
  constructor(
    private readonly points: Float32Array,
    private readonly cell: number,
  ) {
    for (let i = 0; i < points.length / 3; i++) {
      const key = this.key(points[i * 3], points[i * 3 + 1], points[i * 3 + 2]);
      const list = this.cells.get(key);
      if (list) list.push(i);
      else this.cells.set(key, [i]);
    }
  }
  private key(x: number, y: number, z: number) {
    return `${Math.floor(x / this.cell)},${Math.floor(y / this.cell)},${Math.floor(z / this.cell)}`;
  }
  /** Distance to the nearest point, or Infinity when none is within one cell's reach. */
  nearest(x: number, y: number, z: number): number {
    const cx = Math.floor(x / this.cell), cy = Math.floor(y / this.cell), cz = Math.floor(z / this.cell);
    let best = Infinity;
    for (let i = -1; i <= 1; i++)
      for (let j = -1; j <= 1; j++)
        for (let k = -1; k <= 1; k++) {
          for (const index of this.cells.get(`${cx + i},${cy + j},${cz + k}`) ?? []) {
            const d = Math.hypot(this.points[index * 3] - x, this.points[index * 3 + 1] - y, this.points[index * 3 + 2] - z);
            if (d < best) best = d;
          }
        }
    return best <= this.cell ? best : Infinity;
  }
}

/** Camera frame of a look-at camera (three.js convention: up is +y). */
function cameraBasis(camera: ViewCamera) {
  const f = camera.target.map((v, i) => v - camera.position[i]);
  const fl = Math.hypot(f[0], f[1], f[2]);
  const fwd = f.map((v) => v / fl);
  const r = [fwd[1] * 0 - fwd[2] * 1, fwd[2] * 0 - fwd[0] * 0, fwd[0] * 1 - fwd[1] * 0];
  const rl = Math.hypot(r[0], r[1], r[2]);
  const right = r.map((v) => v / rl);
  const up = [right[1] * fwd[2] - right[2] * fwd[1], right[2] * fwd[0] - right[0] * fwd[2], right[0] * fwd[1] - right[1] * fwd[0]];
  const focal = camera.height / 2 / Math.tan((camera.fovDeg * Math.PI) / 360);
  return {
    project(p: ArrayLike<number>): [number, number, number] {
      const d = [p[0] - camera.position[0], p[1] - camera.position[1], p[2] - camera.position[2]];
      const x = d[0] * right[0] + d[1] * right[1] + d[2] * right[2];
      const y = d[0] * up[0] + d[1] * up[1] + d[2] * up[2];
      const z = d[0] * fwd[0] + d[1] * fwd[1] + d[2] * fwd[2];
      return [camera.width / 2 + (x / z) * focal, camera.height / 2 - (y / z) * focal, z];
    },
  };
}

/** Depth buffer of triangles seen from `camera` at its own resolution (nearest depth per pixel; Infinity where empty). */
export function depthBuffer(triangles: Float32Array, camera: ViewCamera): Float32Array {
  const { width, height } = camera;
  const depth = new Float32Array(width * height).fill(Infinity);
  const view = cameraBasis(camera);
  for (let t = 0; t < triangles.length; t += 9) {
    const a = view.project(triangles.subarray(t, t + 3)), b = view.project(triangles.subarray(t + 3, t + 6)), c = view.project(triangles.subarray(t + 6, t + 9));
    if (a[2] <= 1e-3 || b[2] <= 1e-3 || c[2] <= 1e-3) continue;
    const area = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    if (Math.abs(area) < 1e-12) continue;
    const x0 = Math.max(0, Math.floor(Math.min(a[0], b[0], c[0]))), x1 = Math.min(width - 1, Math.ceil(Math.max(a[0], b[0], c[0])));
    const y0 = Math.max(0, Math.floor(Math.min(a[1], b[1], c[1]))), y1 = Math.min(height - 1, Math.ceil(Math.max(a[1], b[1], c[1])));
    for (let y = y0; y <= y1; y++)
      for (let x = x0; x <= x1; x++) {
        const px = x + 0.5, py = y + 0.5;
        const w0 = ((b[0] - px) * (c[1] - py) - (b[1] - py) * (c[0] - px)) / area;
        const w1 = ((c[0] - px) * (a[1] - py) - (c[1] - py) * (a[0] - px)) / area;
        const w2 = 1 - w0 - w1;
        if (w0 < 0 || w1 < 0 || w2 < 0) continue;
        const z = 1 / (w0 / a[2] + w1 / b[2] + w2 / c[2]);
        const i = y * width + x;
        if (z < depth[i]) depth[i] = z;
      }
  }
  return depth;
}

/**
 * Which sample points some camera sees: in its frame, facing it, and not behind the occluders' surface
 * (depth within `tolerance` of the nearest depth around its pixel).
 */
export function visibleFromAny(points: Float32Array, normals: Float32Array, cameras: ViewCamera[], occluders: Float32Array, tolerance: number): Uint8Array {
  const visible = new Uint8Array(points.length / 3);
  for (const camera of cameras) {
    const depth = depthBuffer(occluders, camera);
    const view = cameraBasis(camera);
    for (let i = 0; i < visible.length; i++) {
      if (visible[i]) continue;
      const p = points.subarray(i * 3, i * 3 + 3);
      const toCamera = [camera.position[0] - p[0], camera.position[1] - p[1], camera.position[2] - p[2]];
      if (toCamera[0] * normals[i * 3] + toCamera[1] * normals[i * 3 + 1] + toCamera[2] * normals[i * 3 + 2] <= 0) continue;
      const [x, y, z] = view.project(p);
      if (!(z > 0) || x < 0 || y < 0 || x >= camera.width || y >= camera.height) continue;
      let far = 0;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const xx = Math.min(camera.width - 1, Math.max(0, Math.floor(x) + dx)), yy = Math.min(camera.height - 1, Math.max(0, Math.floor(y) + dy));
          const d = depth[yy * camera.width + xx];
          if (Number.isFinite(d)) far = Math.max(far, d);
        }
      if (z <= far + tolerance) visible[i] = 1;
    }
  }
  return visible;
}

export interface SurfaceAgreement {
  /** The truth's bounding-box diagonal, the unit of the bounds. */
  diagonal: number;
  /** Median distance from the reconstruction (inside the region) to the true surface. */
  medianDistance: number;
  /** Share of the visible true surface with reconstruction within `coverageDistance`. */
  coverage: number;
  reconstructionSamples: number;
  visibleTruthSamples: number;
}

/**
 * Accuracy and completeness of `reconstruction` against `truth`, both in the truth's frame. Accuracy is
 * measured on the reconstruction inside the truth's bounding box grown by `margin` (a scan has floor and
 * background around the subject) and above `floorY`; completeness on the part of the truth that the
 * capture cameras saw, above `floorY`.
 */
export function surfaceAgreement(input: {
  reconstruction: Float32Array;
  truth: Float32Array;
  cameras: ViewCamera[];
  /** Coverage counts true samples with reconstruction within this share of the diagonal. */
  coverageShare: number;
  margin: number;
  floorY: number;
  spacing: number;
}): SurfaceAgreement {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < input.truth.length; i++) {
    min[i % 3] = Math.min(min[i % 3], input.truth[i]);
    max[i % 3] = Math.max(max[i % 3], input.truth[i]);
  }
  const diagonal = Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
  const grow = input.margin * diagonal;
  const inside = (x: number, y: number, z: number) =>
    x >= min[0] - grow && x <= max[0] + grow && z >= min[2] - grow && z <= max[2] + grow && y <= max[1] + grow && y > input.floorY;

  const recon = sampleSurface(input.reconstruction, input.spacing);
  const kept: number[] = [];
  for (let i = 0; i < recon.points.length; i += 3) if (inside(recon.points[i], recon.points[i + 1], recon.points[i + 2])) kept.push(recon.points[i], recon.points[i + 1], recon.points[i + 2]);
  const reconPoints = Float32Array.from(kept);
  // Accuracy: a subsample of the reconstruction against every true triangle (the truth is small).
  const stride = Math.max(1, Math.floor(reconPoints.length / 3 / 20000));
  const distances: number[] = [];
  for (let i = 0; i < reconPoints.length / 3; i += stride) {
    const p = reconPoints.subarray(i * 3, i * 3 + 3);
    let best = Infinity;
    for (let t = 0; t < input.truth.length; t += 9) best = Math.min(best, pointTriangleDistance(p, input.truth, t));
    distances.push(best);
  }
  distances.sort((a, b) => a - b);
  const medianDistance = distances.length ? distances[distances.length >> 1] : Infinity;

  // Completeness: the true surface the cameras saw, against the reconstruction's samples.
  const truthSamples = sampleSurface(input.truth, input.spacing);
  const visible = visibleFromAny(truthSamples.points, truthSamples.normals, input.cameras, input.truth, 0.01 * diagonal);
  const reach = input.coverageShare * diagonal;
  const grid = new PointGrid(reconPoints, reach);
  let seen = 0,
    covered = 0;
  for (let i = 0; i < visible.length; i++) {
    if (!visible[i] || truthSamples.points[i * 3 + 1] <= input.floorY) continue;
    seen++;
    if (grid.nearest(truthSamples.points[i * 3], truthSamples.points[i * 3 + 1], truthSamples.points[i * 3 + 2]) <= reach) covered++;
  }
  return { diagonal, medianDistance, coverage: seen ? covered / seen : 0, reconstructionSamples: distances.length, visibleTruthSamples: seen };
}

/**
 * PSNR (dB) of two RGBA images over the pixels the render drew (its alpha at least `minAlpha`: 255 for a
 * mesh; a splat's edges are partly transparent).
 */
export function maskedPsnr(rendered: Uint8Array, photo: Uint8Array, width: number, height: number, minAlpha = 255): { psnr: number; coverage: number } {
  let sum = 0,
    n = 0;
  for (let i = 0; i < width * height; i++) {
    if (rendered[i * 4 + 3] < minAlpha) continue;
    for (let k = 0; k < 3; k++) sum += (rendered[i * 4 + k] - photo[i * 4 + k]) ** 2;
    n += 3;
  }
  const mse = n ? sum / n : Infinity;
  return { psnr: mse === 0 ? Infinity : 10 * Math.log10((255 * 255) / mse), coverage: n / 3 / (width * height) };
}
