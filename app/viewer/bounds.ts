/**
 * Pure bounding-box maths for framing models (no three.js, so it runs in node tests).
 * Points are packed as [x0, y0, z0, x1, y1, z1, ...].
 */
export type Vec3 = [number, number, number];
export interface Bounds {
  min: Vec3;
  max: Vec3;
}

/** The value at fraction `q` (0..1) of a sorted copy of `values` (nearest-rank, no interpolation). */
export function quantile(values: ArrayLike<number>, q: number): number {
  if (values.length === 0) throw new Error("quantile of an empty list");
  const sorted = Float64Array.from(values).sort();
  const clamped = Math.min(1, Math.max(0, q));
  return sorted[Math.round(clamped * (sorted.length - 1))];
}

/**
 * Axis-aligned bounds that ignore outliers: per axis, the `low`..`high` quantiles
 * (e.g. 0.02..0.98) of the finite points. Returns null when there is no finite point.
 */
export function percentileBounds(points: ArrayLike<number>, low = 0.02, high = 0.98): Bounds | null {
  const count = Math.floor(points.length / 3);
  const axes = [new Float64Array(count), new Float64Array(count), new Float64Array(count)];
  let n = 0;
  for (let i = 0; i < count; i++) {
    const x = points[i * 3];
    const y = points[i * 3 + 1];
    const z = points[i * 3 + 2];
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) continue;
    axes[0][n] = x;
    axes[1][n] = y;
    axes[2][n] = z;
    n++;
  }
  if (n === 0) return null;
  const min: Vec3 = [0, 0, 0];
  const max: Vec3 = [0, 0, 0];
  for (let a = 0; a < 3; a++) {
    const sorted = axes[a].subarray(0, n).sort();
    min[a] = sorted[Math.round(Math.min(low, high) * (n - 1))];
    max[a] = sorted[Math.round(Math.max(low, high) * (n - 1))];
  }
  return { min, max };
}

export function boundsCenter(b: Bounds): Vec3 {
  return [(b.min[0] + b.max[0]) / 2, (b.min[1] + b.max[1]) / 2, (b.min[2] + b.max[2]) / 2];
}

/** Radius of the sphere around the box (half its diagonal). */
export function boundsRadius(b: Bounds): number {
  const dx = b.max[0] - b.min[0];
  const dy = b.max[1] - b.min[1];
  const dz = b.max[2] - b.min[2];
  return Math.sqrt(dx * dx + dy * dy + dz * dz) / 2;
}

/** Picks every `stride`-th index so that at most `maxSamples` of `total` items are visited. */
export function sampleStride(total: number, maxSamples: number): number {
  if (total <= maxSamples || maxSamples <= 0) return 1;
  return Math.ceil(total / maxSamples);
}
