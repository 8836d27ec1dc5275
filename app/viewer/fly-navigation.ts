/**
 * Fly mode: look around by dragging (mouse or one finger), move with W A S D / arrows, Q/E for
 * down/up, the wheel or a pinch to move forward and back. OrbitControls is switched off meanwhile;
 * leaving fly mode puts the orbit target in front of the camera, where it looked.
 */
import { Euler, Vector3, type PerspectiveCamera } from "three";
import type { OrbitControls } from "three/addons/controls/OrbitControls.js";
import type { FlyDirection } from "./keyboard-navigation";

export interface FlyNavigation {
  readonly active: boolean;
  enable(): void;
  disable(): void;
  /** Marks a movement key as held or released. */
  setKey(direction: FlyDirection, held: boolean, fast?: boolean): void;
  /** Forgets held keys (the canvas lost focus, so their key-up will not come). */
  releaseKeys(): void;
  /** Moves the camera for the keys held; returns whether it moved. */
  update(deltaSeconds: number): boolean;
  dispose(): void;
}

const LOOK_RADIANS_PER_PX = 0.004;
const MAX_PITCH = Math.PI / 2 - 0.01;

export function createFlyNavigation({
  camera,
  controls,
  canvas,
  speedScale,
  onChange,
}: {
  camera: PerspectiveCamera;
  controls: OrbitControls;
  canvas: HTMLCanvasElement;
  /** World units a second at normal speed (the model's size). */
  speedScale: () => number;
  /** The camera moved outside update(): ask for a frame. */
  onChange: () => void;
}): FlyNavigation {
  let active = false;
  let fast = false;
  let focusDistance = 1;
  const held = new Set<FlyDirection>();
  const euler = new Euler(0, 0, 0, "YXZ");
  const pointers = new Map<number, { x: number; y: number }>();
  let pinch = 0;
  const move = new Vector3();
  const forward = new Vector3();

  const look = (dx: number, dy: number) => {
    euler.setFromQuaternion(camera.quaternion, "YXZ");
    euler.y -= dx * LOOK_RADIANS_PER_PX;
    euler.x = Math.max(-MAX_PITCH, Math.min(MAX_PITCH, euler.x - dy * LOOK_RADIANS_PER_PX));
    euler.z = 0;
    camera.quaternion.setFromEuler(euler);
    onChange();
  };
  const advance = (distance: number) => {
    camera.getWorldDirection(forward);
    camera.position.addScaledVector(forward, distance);
    onChange();
  };
  const pinchDistance = () => {
    const [a, b] = [...pointers.values()];
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
  };

  const onPointerDown = (event: PointerEvent) => {
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    canvas.setPointerCapture?.(event.pointerId);
    pinch = pinchDistance();
  };
  const onPointerMove = (event: PointerEvent) => {
    const last = pointers.get(event.pointerId);
    if (!last) return;
    const dx = event.clientX - last.x;
    const dy = event.clientY - last.y;
    last.x = event.clientX;
    last.y = event.clientY;
    if (pointers.size === 1) look(dx, dy);
    else if (pointers.size === 2) {
      const distance = pinchDistance();
      advance(((distance - pinch) / Math.max(1, canvas.clientHeight)) * speedScale() * 2);
      pinch = distance;
    }
  };
  const onPointerUp = (event: PointerEvent) => {
    pointers.delete(event.pointerId);
    pinch = pinchDistance();
  };
  const onWheel = (event: WheelEvent) => {
    event.preventDefault();
    advance(-Math.sign(event.deltaY) * speedScale() * 0.1);
  };

  const listen = (on: boolean) => {
    const method = on ? "addEventListener" : "removeEventListener";
    canvas[method]("pointerdown", onPointerDown as EventListener);
    canvas[method]("pointermove", onPointerMove as EventListener);
    canvas[method]("pointerup", onPointerUp as EventListener);
    canvas[method]("pointercancel", onPointerUp as EventListener);
    canvas[method]("wheel", onWheel as EventListener, { passive: false } as AddEventListenerOptions);
  };

  return {
    get active() {
      return active;
    },
    enable() {
      if (active) return;
      active = true;
      focusDistance = Math.max(camera.position.distanceTo(controls.target), 1e-3);
      controls.enabled = false;
      controls.autoRotate = false;
      camera.lookAt(controls.target);
      listen(true);
      canvas.style.cursor = "move";
    },
    disable() {
      if (!active) return;
      active = false;
      listen(false);
      held.clear();
      pointers.clear();
      canvas.style.cursor = "";
      camera.getWorldDirection(forward);
      controls.target.copy(camera.position).addScaledVector(forward, focusDistance);
      controls.enabled = true;
      controls.update();
      onChange();
    },
    setKey(direction, isHeld, isFast = false) {
      fast = isFast;
      if (isHeld) held.add(direction);
      else held.delete(direction);
    },
    releaseKeys() {
      held.clear();
    },
    update(deltaSeconds) {
      if (!active || held.size === 0) return false;
      move.set(
        (held.has("right") ? 1 : 0) - (held.has("left") ? 1 : 0),
        (held.has("up") ? 1 : 0) - (held.has("down") ? 1 : 0),
        (held.has("back") ? 1 : 0) - (held.has("forward") ? 1 : 0),
      );
      if (move.lengthSq() === 0) return false;
      // Forward/sideways in the camera's frame, up/down along the world's vertical.
      const vertical = move.y;
      move.y = 0;
      move.applyQuaternion(camera.quaternion);
      move.y += vertical;
      camera.position.addScaledVector(move.normalize(), speedScale() * (fast ? 3 : 1) * deltaSeconds);
      return true;
    },
    dispose() {
      if (active) listen(false);
      active = false;
      held.clear();
      pointers.clear();
    },
  };
}
