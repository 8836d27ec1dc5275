/**
 * Surface picking: which point of the model is under a pointer. Meshes through three's Raycaster
 * (with the face normal); splats through Spark's SplatMesh.raycast, which intersects the splats'
 * ellipsoids above an opacity threshold (no normal there: we use the direction towards the camera).
 * Whether a hit needs a face is decided per hit object (scenes mix meshes and splats).
 */
import { Raycaster, Vector2, type Intersection } from "three";
import type { Vec3 } from "./bounds";
import { isSplatObject, partIdOf } from "./object-flags";
import type { Viewer } from "./types";

export interface SurfaceHit {
  point: Vec3;
  /** Unit normal facing the camera: the face normal on meshes, the view direction on splats. */
  normal: Vec3;
}

const raycaster = new Raycaster();
const pointer = new Vector2();

/** A hit counts as surface when it has a face (meshes; not lines or points) or is on a splat. */
export function isSurfaceHit(hit: Pick<Intersection, "face" | "object">): boolean {
  return !!hit.face || isSplatObject(hit.object);
}

/** The nearest surface hit of the model under a point of the page, or null. */
function pickModel(viewer: Viewer, clientX: number, clientY: number): Intersection | null {
  const model = viewer.stage.model();
  if (!model) return null;
  const rect = viewer.canvas.getBoundingClientRect();
  if (rect.width === 0 || rect.height === 0) return null;
  pointer.set(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
  const { camera } = viewer.stage;
  camera.updateMatrixWorld();
  raycaster.setFromCamera(pointer, camera);
  const hits: Intersection[] = raycaster.intersectObject(model.object, true);
  return hits.find(isSurfaceHit) ?? null;
}

/** The model's surface under a point of the page (client coordinates), or null when it is empty space. */
export function pickSurface(viewer: Viewer, clientX: number, clientY: number): SurfaceHit | null {
  const hit = pickModel(viewer, clientX, clientY);
  if (!hit) return null;
  const ray = raycaster.ray.direction;
  const normal = hit.face ? hit.face.normal.clone().transformDirection(hit.object.matrixWorld) : ray.clone().negate();
  if (normal.dot(ray) > 0) normal.negate(); // the side we look at (double-sided materials)
  return { point: hit.point.toArray() as Vec3, normal: normal.normalize().toArray() as Vec3 };
}

/** The id of the scene part under a point of the page (loadScene), or null (empty space, or a single model). */
export function pickPart(viewer: Viewer, clientX: number, clientY: number): string | null {
  const hit = pickModel(viewer, clientX, clientY);
  return hit ? partIdOf(hit.object) : null;
}

/** The surface at the centre of the canvas: placing without a pointer (keyboard users). */
export function pickCenter(viewer: Viewer): SurfaceHit | null {
  const rect = viewer.canvas.getBoundingClientRect();
  return pickSurface(viewer, rect.left + rect.width / 2, rect.top + rect.height / 2);
}

/** A press that moved at most this far (CSS px) and lasted at most this long is a click, not an orbit drag. */
const CLICK_SLOP_PX = 6;
const CLICK_MAX_MS = 600;

/**
 * Calls `handler` for each click (primary button or touch) on `element`: a press that neither moved
 * far nor lasted long, so orbit drags are excluded. Returns the detach function.
 */
export function onClick(element: HTMLElement, handler: (event: PointerEvent) => void): () => void {
  let down: { x: number; y: number; time: number; id: number } | null = null;
  const onDown = (event: PointerEvent) => {
    down = event.isPrimary && event.button === 0 ? { x: event.clientX, y: event.clientY, time: performance.now(), id: event.pointerId } : null;
  };
  const onUp = (event: PointerEvent) => {
    const start = down;
    down = null;
    if (!start || start.id !== event.pointerId) return;
    const moved = Math.hypot(event.clientX - start.x, event.clientY - start.y);
    if (moved > CLICK_SLOP_PX || performance.now() - start.time > CLICK_MAX_MS) return;
    handler(event);
  };
  element.addEventListener("pointerdown", onDown);
  element.addEventListener("pointerup", onUp);
  return () => {
    element.removeEventListener("pointerdown", onDown);
    element.removeEventListener("pointerup", onUp);
  };
}

/**
 * Calls `handler` for each click on the canvas (orbit drags excluded) with the surface under it, or
 * null for a click on empty space. Shows a crosshair cursor meanwhile. Returns the detach function.
 */
export function onSurfaceClick(viewer: Viewer, handler: (hit: SurfaceHit | null, event: PointerEvent) => void): () => void {
  const canvas = viewer.canvas;
  const detach = onClick(canvas, (event) => handler(pickSurface(viewer, event.clientX, event.clientY), event));
  const previousCursor = canvas.style.cursor;
  canvas.style.cursor = "crosshair";
  return () => {
    detach();
    canvas.style.cursor = previousCursor;
  };
}
