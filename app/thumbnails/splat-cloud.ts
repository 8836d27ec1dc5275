/** Decoded gaussian splats in the viewer's world frame (after the upright flip), as the splat renderer draws them. */
import type { GaussianArrays } from "~/formats/gaussian";
import type { Bounds } from "~/viewer/bounds";

/**
 * View-dependent colour: the spherical-harmonics coefficients of degrees 1..degree (3DGS's f_rest_*), which stay
 * in the file's frame — the renderer turns its view directions back into that frame rather than rotating them.
 */
export interface SplatHarmonics {
  degree: 1 | 2 | 3;
  /** Per splat shRestCount(degree) coefficients, each as r, g, b: splat i's coefficient k of channel c at ((i·n + k)·3 + c). */
  coefficients: Float32Array;
}

export interface SplatCloud extends GaussianArrays {
  /** The viewer's framing box (app/viewer/splat-bounds.ts). */
  bounds: Bounds;
  /** Absent when the file holds only base colours (degree 0). */
  harmonics?: SplatHarmonics;
}
