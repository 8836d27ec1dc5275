/** Bounds of a scene of parts (pure maths, no three.js): each part's box moved by its transform, then their union. */
import type { Bounds, Vec3 } from "./bounds";

/**
 * The axis-aligned box around `bounds` after `matrix` (4×4, column-major): the box's 8 corners
 * transformed, then their extent.
 */
export function transformBounds(bounds: Bounds, matrix: ArrayLike<number>): Bounds {
  const m = matrix;
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let corner = 0; corner < 8; corner++) {
    const x = corner & 1 ? bounds.max[0] : bounds.min[0];
    const y = corner & 2 ? bounds.max[1] : bounds.min[1];
    const z = corner & 4 ? bounds.max[2] : bounds.min[2];
    const w = m[3] * x + m[7] * y + m[11] * z + m[15] || 1;
    const out: Vec3 = [
      (m[0] * x + m[4] * y + m[8] * z + m[12]) / w,
      (m[1] * x + m[5] * y + m[9] * z + m[13]) / w,
      (m[2] * x + m[6] * y + m[10] * z + m[14]) / w,
    ];
    for (let a = 0; a < 3; a++) {
      min[a] = Math.min(min[a], out[a]);
      max[a] = Math.max(max[a], out[a]);
    }
  }
  return { min, max };
}

/** The smallest box holding all of `list`; null for an empty list. */
export function unionBounds(list: readonly Bounds[]): Bounds | null {
  if (list.length === 0) return null;
  const min: Vec3 = [...list[0].min];
  const max: Vec3 = [...list[0].max];
  for (const b of list) {
    for (let a = 0; a < 3; a++) {
      min[a] = Math.min(min[a], b.min[a]);
      max[a] = Math.max(max[a], b.max[a]);
    }
  }
  return { min, max };
}
