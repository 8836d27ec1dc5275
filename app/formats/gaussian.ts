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
