import type { CameraView, Vec3 } from "~/domain/annotation-schemas";

/**
 * Guided tours through a model's annotations (issue 6), as pure functions: which stop comes next,
 * which camera view shows a stop, and the camera path between two views.
 */
export interface TourStop {
  position: Vec3;
  normal: Vec3 | null;
  camera: CameraView | null;
}

export type TourStep = "first" | "next" | "previous" | "last";

/** The stop index after a step, kept within the tour; null when the tour has no stops. */
export function stepTour(current: number | null, count: number, step: TourStep): number | null {
  if (count <= 0) return null;
  const last = count - 1;
  if (step === "first" || current === null) return step === "last" ? last : 0;
  if (step === "last") return last;
  const next = current + (step === "next" ? 1 : -1);
  return Math.min(last, Math.max(0, next));
}

/** "Stop 2 of 5". */
export function tourLabel(index: number, count: number): string {
  return `Stop ${index + 1} of ${count}`;
}

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const length = (a: Vec3) => Math.hypot(a[0], a[1], a[2]);
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
function normalize(a: Vec3): Vec3 | null {
  const len = length(a);
  return len > 1e-12 && Number.isFinite(len) ? scale(a, 1 / len) : null;
}

/**
 * The view a tour shows for a stop: the view saved with it, or else the anchor seen along its
 * normal (or the current viewing direction) from the current camera distance.
 */
export function viewForStop(stop: TourStop, current: CameraView): CameraView {
  if (stop.camera) return stop.camera;
  const offset = sub(current.position, current.target);
  const distance = length(offset) || 1;
  const direction = (stop.normal && normalize(stop.normal)) ?? normalize(offset) ?? ([0, 0, 1] as Vec3);
  return { position: add(stop.position, scale(direction, distance)), target: [...stop.position] as Vec3 };
}

/** Slow in, slow out. */
export function easeInOutCubic(t: number): number {
  const x = Math.min(1, Math.max(0, t));
  return x < 0.5 ? 4 * x * x * x : 1 - (-2 * x + 2) ** 3 / 2;
}

/** Spherical interpolation of two unit vectors; opposite ones turn about an axis perpendicular to both. */
function slerpDirection(a: Vec3, b: Vec3, t: number): Vec3 {
  const cosine = Math.min(1, Math.max(-1, dot(a, b)));
  const angle = Math.acos(cosine);
  if (angle < 1e-6) return a;
  if (Math.PI - angle < 1e-3) {
    const side = normalize(cross(a, [0, 1, 0])) ?? normalize(cross(a, [1, 0, 0]))!;
    return add(scale(a, Math.cos(Math.PI * t)), scale(side, Math.sin(Math.PI * t)));
  }
  const s = Math.sin(angle);
  return add(scale(a, Math.sin((1 - t) * angle) / s), scale(b, Math.sin(t * angle) / s));
}

/**
 * The camera view at `t` (0..1) on the way from one view to another. The target moves in a straight
 * line while the camera swings around it (direction slerped, distance interpolated geometrically),
 * so the path orbits the model instead of cutting through it.
 */
export function interpolateView(from: CameraView, to: CameraView, t: number): CameraView {
  const k = Math.min(1, Math.max(0, t));
  const target = add(from.target, scale(sub(to.target, from.target), k));
  const fromOffset = sub(from.position, from.target);
  const toOffset = sub(to.position, to.target);
  const fromDistance = length(fromOffset);
  const toDistance = length(toOffset);
  const fromDir = normalize(fromOffset);
  const toDir = normalize(toOffset);
  if (!fromDir || !toDir) {
    return { position: add(from.position, scale(sub(to.position, from.position), k)), target };
  }
  const distance = fromDistance * (toDistance / fromDistance) ** k;
  return { position: add(target, scale(slerpDirection(fromDir, toDir, k), distance)), target };
}
