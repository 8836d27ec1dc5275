/** Decoded gaussian splats in the viewer's world frame (after the upright flip), as the splat renderer draws them. */
import type { GaussianArrays } from "~/formats/gaussian";
import type { Bounds } from "~/viewer/bounds";

export interface SplatCloud extends GaussianArrays {
  /** The viewer's framing box (app/viewer/splat-bounds.ts). */
  bounds: Bounds;
}
