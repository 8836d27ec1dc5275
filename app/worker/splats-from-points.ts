/**
 * Splats made from points (the 3DGS layout of app/formats/splat-ply.ts, SH degree 0): the preview splat from the
 * sparse points and the dense splat from the fused ones, published when there is no training. Pure.
 */
import { SH_C0 } from "~/formats/gaussian";
import { SPLAT_PROPERTIES, type Splats } from "~/formats/splat-ply";
import type { ColmapPoints } from "./colmap-model";
import { nearestNeighbours, neighbourScales } from "./point-geometry";

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
