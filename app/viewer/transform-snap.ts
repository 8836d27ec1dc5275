/** Snapping and uniform scaling for the scene gizmo (scene-gizmo.ts); pure maths. */
import type { Vec3 } from "./bounds";
import { clampScale } from "./part-transform";

/** Snap steps: 0.1 model units, 15°, 0.1 scale. */
export const SNAP_STEPS = { translation: 0.1, rotation: Math.PI / 12, scale: 0.1 } as const;

/** `value` rounded to the nearest multiple of `step`. */
export function snapTo(value: number, step: number): number {
  return Math.round(value / step) * step;
}

/**
 * The one scale a gizmo drag means: the axis that changed most relative to where the drag started
 * (a drag on one scale handle changes one axis; the centre handle changes all alike), snapped to
 * `snapStep` when set (never to 0), and at least MIN_PART_SCALE.
 */
export function uniformScaleFrom(start: Vec3, current: Vec3, snapStep: number | null = null): number {
  let chosen = 0;
  let change = -1;
  for (let a = 0; a < 3; a++) {
    const relative = Math.abs(current[a] - start[a]) / Math.max(Math.abs(start[a]), 1e-9);
    if (relative > change) {
      change = relative;
      chosen = a;
    }
  }
  let value = current[chosen];
  if (snapStep) value = Math.max(snapTo(value, snapStep), snapStep);
  return clampScale(value);
}
