/**
 * Gaussian-splat constants every splat reader and writer shares (issue 39: SH_C0 was defined four times).
 * Browser-safe.
 */

/** The degree-0 real spherical-harmonics basis, 1 / (2√π): a splat's base colour is 0.5 + SH_C0 · f_dc. */
export const SH_C0 = 0.28209479177387814;
