/**
 * How the early splats (index.ts) and ModelViewer speak through their canvas, `canvas[data-early-splats]`
 * (which carries the opening view as `data-camera`): `data-drawn` and this event once the splats are on it;
 * the release event before ModelViewer removes it, which gives its WebGL context back.
 */
export const EARLY_SPLATS_DRAWN = "early-splats-drawn";
export const EARLY_SPLATS_RELEASE = "early-splats-release";
/** The User Timing mark set when the early splats are on screen. */
export const EARLY_SPLATS_MARK = "viewer:early-splats";

/** Whether the early splats are on the page now (drawn, and their canvas not yet replaced by the viewer's). */
export function earlySplatsShown(): boolean {
  return typeof document !== "undefined" && !!document.querySelector("canvas[data-early-splats][data-drawn]");
}
