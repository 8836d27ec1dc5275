/**
 * Gaussian-splat constants every splat reader and writer shares (issue 39: SH_C0 was defined four times).
 * Browser-safe.
 */

/** The degree-0 real spherical-harmonics basis, 1 / (2√π): a splat's base colour is 0.5 + SH_C0 · f_dc. */
export const SH_C0 = 0.28209479177387814;

/**
 * Decoded gaussians as flat arrays, the one record shape every reader fills (the editor's file-frame cloud, the
 * thumbnails' and evaluation's world-frame cloud). Quaternions are w, x, y, z, the order 3DGS stores rot_0..3 in.
 */
export interface GaussianArrays {
  count: number;
  /** Centres, 3 floats a splat. */
  positions: Float32Array;
  /** Standard deviations along the splat's own axes (exp of the stored log-scales), 3 floats a splat. */
  scales: Float32Array;
  /** Rotation quaternions w, x, y, z, 4 floats a splat (unit where the reader normalises them; the editor keeps the file's). */
  rotations: Float32Array;
  /** Degree-0 colour in 0..1 (0.5 + SH_C0 · f_dc, clamped, as Spark shows it), 3 floats a splat. */
  colors: Float32Array;
  /** 0..1 (the sigmoid of the stored logit). */
  opacities: Float32Array;
}

/** Higher spherical-harmonics coefficients per colour channel for each degree (3DGS's f_rest_* count ÷ 3). */
export function shRestCount(degree: number): number {
  return (degree + 1) * (degree + 1) - 1;
}

/**
 * The real SH basis of degrees 1..degree at a unit direction (x, y, z) from the camera to the splat, in the
 * splat file's own frame, written to out[0..shRestCount(degree)) — 3DGS's constants and signs, the ones its
 * trainers fit and Spark evaluates: a splat's colour seen along that direction is 0.5 + SH_C0 · f_dc + Σ out[k] · rest[k].
 */
export function shBasis(x: number, y: number, z: number, degree: number, out: Float32Array | number[]): void {
  if (degree < 1) return;
  const C1 = 0.4886025119029199;
  out[0] = -C1 * y;
  out[1] = C1 * z;
  out[2] = -C1 * x;
  if (degree < 2) return;
  const xx = x * x;
  const yy = y * y;
  const zz = z * z;
  out[3] = 1.0925484305920792 * x * y;
  out[4] = -1.0925484305920792 * y * z;
  out[5] = 0.31539156525252005 * (2 * zz - xx - yy);
  out[6] = -1.0925484305920792 * x * z;
  out[7] = 0.5462742152960396 * (xx - yy);
  if (degree < 3) return;
  out[8] = -0.5900435899266435 * y * (3 * xx - yy);
  out[9] = 2.890611442640554 * x * y * z;
  out[10] = -0.4570457994644658 * y * (4 * zz - xx - yy);
  out[11] = 0.3731763325901154 * z * (2 * zz - 3 * xx - 3 * yy);
  out[12] = -0.4570457994644658 * x * (4 * zz - xx - yy);
  out[13] = 1.445305721320277 * z * (xx - yy);
  out[14] = -0.5900435899266435 * x * (xx - 3 * yy);
}
