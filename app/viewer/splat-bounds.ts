/**
 * The framing bounds of a gaussian splat, one rule for the viewer (load-splat.ts, on Spark's decoded
 * splats) and the server's thumbnails (app/thumbnails/, on splat-transform's): a sample of at most
 * MAX_BOUNDS_SAMPLES centres, floaters (nearly transparent splats) left out, taken in the viewer's
 * world frame, then the 2–98 % percentile box. Pure: no three.js, no Spark.
 */
import { percentileBounds, sampleStride, type Bounds } from "./bounds";

/** At most this many splat centres are read to compute the framing bounds. */
export const MAX_BOUNDS_SAMPLES = 200_000;
/** Nearly transparent splats are usually floaters; they do not count for framing. */
export const MIN_BOUNDS_OPACITY = 0.1;

/**
 * The upright flip every splat format gets in the viewer: a half turn about X, (x, y, z) → (x, −y, −z).
 * 3DGS training outputs (.ply and everything converted from it: .ksplat, .spz, .splat, .sog) use
 * OpenCV-style camera axes with +Y down. As a quaternion (x, y, z, w): (1, 0, 0, 0).
 */
export const SPLAT_UPRIGHT_QUATERNION = [1, 0, 0, 0] as const;

/** Collects sampled splat centres (given in the file's frame) in the viewer's world frame. */
export class SplatCenterSample {
  /** Visit every `stride`-th splat (by index) and pass it to add(). */
  readonly stride: number;
  private readonly points: Float32Array;
  private n = 0;

  constructor(count: number) {
    this.stride = sampleStride(count, MAX_BOUNDS_SAMPLES);
    this.points = new Float32Array(Math.ceil(count / this.stride) * 3);
  }

  /** One sampled splat: its centre in the file's frame and its opacity (0..1). */
  add(x: number, y: number, z: number, opacity: number): void {
    if (opacity < MIN_BOUNDS_OPACITY || this.n + 3 > this.points.length) return;
    this.points[this.n++] = x;
    this.points[this.n++] = -y;
    this.points[this.n++] = -z;
  }

  /** The framing box in the viewer's world frame, or null when no splat counted. */
  bounds(): Bounds | null {
    return this.n > 0 ? percentileBounds(this.points.subarray(0, this.n), 0.02, 0.98) : null;
  }
}
