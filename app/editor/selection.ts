/**
 * Screen-space selection and the crop box of the clean-up editor (pure). Splat centres are projected
 * with the camera's view-projection times the model's world matrix; a centre behind the camera or
 * outside the view is never selected.
 */

/** Column-major 4×4 matrix (three.js Matrix4.elements). */
export type Mat4 = ArrayLike<number>;

export interface ScreenPoint {
  x: number;
  y: number;
}

/**
 * Pixel coordinates (from the canvas' top left) of each centre, NaN for centres behind the camera
 * or outside the clip volume.
 */
export function projectCentres(positions: Float32Array, matrix: Mat4, width: number, height: number): Float32Array {
  const count = positions.length / 3;
  const out = new Float32Array(count * 2);
  const m = matrix;
  for (let i = 0; i < count; i++) {
    const x = positions[i * 3];
    const y = positions[i * 3 + 1];
    const z = positions[i * 3 + 2];
    const cx = m[0] * x + m[4] * y + m[8] * z + m[12];
    const cy = m[1] * x + m[5] * y + m[9] * z + m[13];
    const cz = m[2] * x + m[6] * y + m[10] * z + m[14];
    const cw = m[3] * x + m[7] * y + m[11] * z + m[15];
    if (cw <= 0 || Math.abs(cx) > cw || Math.abs(cy) > cw || Math.abs(cz) > cw) {
      out[i * 2] = Number.NaN;
      out[i * 2 + 1] = Number.NaN;
      continue;
    }
    out[i * 2] = ((cx / cw + 1) / 2) * width;
    out[i * 2 + 1] = ((1 - cy / cw) / 2) * height;
  }
  return out;
}

/** Even-odd rule: whether (x, y) is inside the polygon (at least 3 vertices, closed implicitly). */
export function pointInPolygon(x: number, y: number, polygon: readonly ScreenPoint[]): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const a = polygon[i];
    const b = polygon[j];
    if (a.y > y !== b.y > y && x < ((b.x - a.x) * (y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

/** Indices of the kept splats whose projected centres are inside the lasso. */
export function selectInLasso(screen: Float32Array, polygon: readonly ScreenPoint[], deleted: Uint8Array): number[] {
  if (polygon.length < 3) return [];
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const p of polygon) {
    minX = Math.min(minX, p.x);
    minY = Math.min(minY, p.y);
    maxX = Math.max(maxX, p.x);
    maxY = Math.max(maxY, p.y);
  }
  const picked: number[] = [];
  for (let i = 0; i < deleted.length; i++) {
    if (deleted[i]) continue;
    const x = screen[i * 2];
    const y = screen[i * 2 + 1];
    // NaN (off screen) fails every comparison.
    if (!(x >= minX && x <= maxX && y >= minY && y <= maxY)) continue;
    if (pointInPolygon(x, y, polygon)) picked.push(i);
  }
  return picked;
}

/** Indices of the kept splats whose projected centres are within `radius` pixels of the brush centre. */
export function selectInBrush(screen: Float32Array, centre: ScreenPoint, radius: number, deleted: Uint8Array): number[] {
  const picked: number[] = [];
  const r2 = radius * radius;
  for (let i = 0; i < deleted.length; i++) {
    if (deleted[i]) continue;
    const dx = screen[i * 2] - centre.x;
    const dy = screen[i * 2 + 1] - centre.y;
    if (dx * dx + dy * dy <= r2) picked.push(i);
  }
  return picked;
}

export interface CropBox {
  min: [number, number, number];
  max: [number, number, number];
}

/** The axis-aligned box around the kept splats' centres (null when none is kept). */
export function boundsOf(positions: Float32Array, deleted: Uint8Array): CropBox | null {
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  let any = false;
  for (let i = 0; i < deleted.length; i++) {
    if (deleted[i]) continue;
    any = true;
    for (let axis = 0; axis < 3; axis++) {
      const value = positions[i * 3 + axis];
      if (value < min[axis]) min[axis] = value;
      if (value > max[axis]) max[axis] = value;
    }
  }
  return any ? { min, max } : null;
}

/** Indices of the kept splats whose centres are outside the box (a point on a face is inside). */
export function outsideBox(positions: Float32Array, box: CropBox, deleted: Uint8Array): number[] {
  return outsideBoxBetween(positions, box, deleted, 0, deleted.length, []);
}

/**
 * outsideBox for the splats from..to−1 only, their indices appended to `picked` (returned): the one
 * rule, which the chunked crop of crop-selection.ts runs a slice at a time.
 */
export function outsideBoxBetween(positions: Float32Array, box: CropBox, deleted: Uint8Array, from: number, to: number, picked: number[]): number[] {
  for (let i = from; i < to; i++) {
    if (deleted[i]) continue;
    for (let axis = 0; axis < 3; axis++) {
      const value = positions[i * 3 + axis];
      if (!(value >= box.min[axis] && value <= box.max[axis])) {
        picked.push(i);
        break;
      }
    }
  }
  return picked;
}
