/** Decoded gaussian splats in the viewer's world frame (after the upright flip), as the splat renderer draws them. */
import type { Bounds } from "~/viewer/bounds";

export interface SplatCloud {
  count: number;
  /** Centres, 3 floats a splat. */
  positions: Float32Array;
  /** Standard deviations along the splat's own axes (exp of the stored log-scales), 3 floats a splat. */
  scales: Float32Array;
  /** Unit rotation quaternions (x, y, z, w), 4 floats a splat. */
  rotations: Float32Array;
  /** Degree-0 colour, sRGB in 0..1 (0.5 + C0 · f_dc, as Spark shows it), 3 floats a splat. */
  colors: Float32Array;
  /** 0..1 (the sigmoid of the stored logit). */
  opacities: Float32Array;
  /** The viewer's framing box (app/viewer/splat-bounds.ts). */
  bounds: Bounds;
}
