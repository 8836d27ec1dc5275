/**
 * Pure camera-fitting maths: how far a perspective camera must stand to see a sphere,
 * and which clipping planes keep the model (and its floaters) in view without losing depth precision.
 */
import { boundsCenter, boundsRadius, type Bounds, type Vec3 } from "./bounds";
import type { CameraView } from "./camera-view";

export interface CameraFit {
  /** Camera position. */
  position: Vec3;
  /** Orbit target (the model's centre). */
  target: Vec3;
  near: number;
  far: number;
  minDistance: number;
  maxDistance: number;
}

const DEG = Math.PI / 180;

/** The viewer camera's vertical field of view (degrees) unless a saved view brings its own. */
export const VIEWER_FOV = 45;

/** How much room the automatic framing leaves around a model's bounding sphere. */
const FRAME_MARGIN = 1.15;

/** Distance at which a sphere of `radius` fills the smaller of the vertical and horizontal field of view. */
export function fitDistance(radius: number, verticalFovDeg: number, aspect: number, margin = FRAME_MARGIN): number {
  const vHalf = (verticalFovDeg * DEG) / 2;
  const hHalf = Math.atan(Math.tan(vHalf) * Math.max(aspect, 1e-6));
  const half = Math.min(vHalf, hHalf);
  return (radius * margin) / Math.sin(half);
}

/**
 * Where to put the camera for a model whose (robust) bounding sphere is `center`/`radius`.
 * `direction` is the viewing offset from the target (need not be normalised).
 */
export function fitCamera(
  center: Vec3,
  radius: number,
  verticalFovDeg: number,
  aspect: number,
  direction: Vec3 = [0, 0.3, 1],
): CameraFit {
  const r = Number.isFinite(radius) && radius > 0 ? radius : 1;
  const distance = fitDistance(r, verticalFovDeg, aspect);
  const len = Math.hypot(direction[0], direction[1], direction[2]) || 1;
  const position: Vec3 = [
    center[0] + (direction[0] / len) * distance,
    center[1] + (direction[1] / len) * distance,
    center[2] + (direction[2] / len) * distance,
  ];
  const minDistance = r * 0.05;
  const maxDistance = distance * 20;
  return {
    position,
    target: [...center] as Vec3,
    // The near plane must stay in front of the closest zoom; the far plane covers the
    // furthest zoom plus scene content well outside the robust bounds (splat backgrounds).
    near: minDistance * 0.2,
    far: maxDistance + r * 50,
    minDistance,
    maxDistance,
  };
}

/** glTF 2.0 defines +Z as the front of an asset; look at meshes from there, slightly above. */
const MESH_VIEW: Vec3 = [0, 0.3, 1];
/**
 * Splat captures have no "front" convention (the guitar sample faces +X, the biker -X), so they
 * get a three-quarter view, which never shows a mere profile.
 */
const SPLAT_VIEW: Vec3 = [1, 0.3, 1];

/** Default direction from the model's centre towards the camera; scenes with splats are seen like splats. */
export function viewDirectionFor(kind: "mesh" | "splat" | "mixed"): Vec3 {
  return [...(kind === "mesh" ? MESH_VIEW : SPLAT_VIEW)] as Vec3;
}

/** The widest vertical field of view a saved view is opened to on a narrow frame before the camera steps back instead. */
export const MAX_WIDENED_FOV = 70;

/**
 * A saved view as it should open in a frame of `aspect` (width ÷ height): unchanged when the frame is at least as
 * wide as the one the view was composed in (`view.aspect`; unknown = unchanged). On a narrower frame (a phone held
 * upright showing a view saved on a desktop, or a scan's landscape capture camera) it keeps what was seen from side
 * to side at the target — but no more than the subject's own width when `subjectRadius` is known (its bounding
 * sphere with the framing margin), so a desktop view's empty margins do not shrink the subject on a phone: first by
 * widening the vertical field of view up to MAX_WIDENED_FOV, then by stepping back along the line of sight.
 * `fallbackFov` is the camera's own when the view has none.
 */
export function viewForAspect(view: CameraView, aspect: number, fallbackFov = VIEWER_FOV, subjectRadius?: number): CameraView {
  const composedFov = view.fov ?? fallbackFov;
  if (!view.aspect || !(aspect > 0) || aspect >= view.aspect) return view;
  const distance = Math.hypot(...view.position.map((v, i) => v - view.target[i]));
  if (!(distance > 0)) return view;
  const composedHalf = (composedFov * DEG) / 2;
  // Half the width seen at the target's distance: tan(horizontal half-angle) = tan(vertical half-angle) × aspect.
  const seen = distance * Math.tan(composedHalf) * view.aspect;
  const keep = subjectRadius && subjectRadius > 0 ? Math.min(seen, subjectRadius * FRAME_MARGIN) : seen;
  const neededTan = keep / distance / aspect; // tan(vertical half-angle) that shows `keep` at the same distance
  if (neededTan <= Math.tan(composedHalf)) return view; // the narrower frame still shows all of it
  const half = Math.min(Math.atan(neededTan), Math.max(composedHalf, (MAX_WIDENED_FOV * DEG) / 2));
  const stepBack = neededTan / Math.tan(half);
  const position = view.position.map((v, i) => view.target[i] + (v - view.target[i]) * stepBack) as Vec3;
  return { position, target: [...view.target] as Vec3, fov: (2 * half) / DEG, aspect };
}

export interface OpeningCamera {
  position: Vec3;
  target: Vec3;
  /** Vertical field of view, degrees. */
  fov: number;
  near: number;
  far: number;
}

/**
 * The camera a model opens with, as the viewer sets it up (model-loading.ts frameModel: frameCamera,
 * then applyCameraView): the fit for its bounds from its kind's default direction, or the saved
 * opening view (its own field of view) with the distance to the target kept inside the fit's zoom
 * limits, as OrbitControls.update() keeps it. For places without a live viewer (server thumbnails).
 */
export function openingCamera(input: {
  bounds: Bounds;
  kind: "mesh" | "splat" | "mixed";
  aspect: number;
  saved?: CameraView | null;
}): OpeningCamera {
  const fit = fitCamera(boundsCenter(input.bounds), boundsRadius(input.bounds), VIEWER_FOV, input.aspect, viewDirectionFor(input.kind));
  const { near, far } = fit;
  if (!input.saved) return { position: fit.position, target: fit.target, fov: VIEWER_FOV, near, far };
  const saved = viewForAspect(input.saved, input.aspect, VIEWER_FOV, boundsRadius(input.bounds));
  const target = [...saved.target] as Vec3;
  const offset = saved.position.map((v, i) => v - target[i]) as Vec3;
  const distance = Math.hypot(...offset);
  const clamped = Math.min(fit.maxDistance, Math.max(fit.minDistance, distance));
  const scale = distance > 0 ? clamped / distance : 1;
  const position = offset.map((v, i) => target[i] + v * scale) as Vec3;
  return { position, target, fov: saved.fov ?? VIEWER_FOV, near, far };
}
