/**
 * Keyboard controls on the focused canvas. Orbit mode: arrows orbit, Shift+arrows pan, +/− zoom,
 * R or Home resets the view, F toggles fullscreen, M switches to fly mode. Fly mode: W A S D or the
 * arrows move, Q/E go down/up, Shift speeds up, Escape or M returns to orbiting.
 */
import { Spherical, Vector3, type PerspectiveCamera } from "three";
import type { OrbitControls } from "three/addons/controls/OrbitControls.js";
import type { NavigationMode } from "./types";

export type FlyDirection = "forward" | "back" | "left" | "right" | "up" | "down";

export type KeyAction =
  | { type: "orbit"; theta: number; phi: number }
  | { type: "pan"; x: number; y: number }
  | { type: "dolly"; factor: number }
  | { type: "reset" }
  | { type: "fullscreen" }
  | { type: "toggle-mode" }
  | { type: "exit-fly" }
  | { type: "fly"; direction: FlyDirection };

const ORBIT_STEP = Math.PI / 36; // 5°
const PAN_STEP = 0.05; // of the distance to the target
const ZOOM_STEP = 0.85;

const FLY_KEYS: Record<string, FlyDirection> = {
  w: "forward", arrowup: "forward",
  s: "back", arrowdown: "back",
  a: "left", arrowleft: "left",
  d: "right", arrowright: "right",
  q: "down", pagedown: "down",
  e: "up", pageup: "up",
};

/** What a key press means in the given mode; null for keys the viewer leaves alone. */
export function keyAction(event: Pick<KeyboardEvent, "key" | "shiftKey" | "ctrlKey" | "metaKey" | "altKey">, mode: NavigationMode): KeyAction | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null; // browser and OS shortcuts
  const key = event.key.toLowerCase();
  if (key === "r" || key === "home") return { type: "reset" };
  if (key === "f") return { type: "fullscreen" };
  if (key === "m") return { type: "toggle-mode" };
  if (mode === "fly") {
    if (key === "escape") return { type: "exit-fly" };
    const direction = FLY_KEYS[key];
    return direction ? { type: "fly", direction } : null;
  }
  const arrows: Record<string, [number, number]> = { arrowleft: [-1, 0], arrowright: [1, 0], arrowup: [0, -1], arrowdown: [0, 1] };
  const arrow = arrows[key];
  if (arrow) {
    return event.shiftKey
      ? { type: "pan", x: arrow[0] * PAN_STEP, y: -arrow[1] * PAN_STEP }
      : { type: "orbit", theta: -arrow[0] * ORBIT_STEP, phi: arrow[1] * ORBIT_STEP };
  }
  if (key === "+" || key === "=" || key === "pageup") return { type: "dolly", factor: ZOOM_STEP };
  if (key === "-" || key === "_" || key === "pagedown") return { type: "dolly", factor: 1 / ZOOM_STEP };
  return null;
}

const offset = new Vector3();
const spherical = new Spherical();
const right = new Vector3();
const up = new Vector3();

/** Applies an orbit, pan or dolly step to the camera around the orbit target, inside the controls' limits. */
export function applyOrbitStep(camera: PerspectiveCamera, controls: OrbitControls, action: KeyAction): boolean {
  const target = controls.target;
  offset.copy(camera.position).sub(target);
  if (action.type === "orbit") {
    spherical.setFromVector3(offset);
    spherical.theta += action.theta;
    spherical.phi = Math.min(Math.max(spherical.phi + action.phi, Math.max(1e-3, controls.minPolarAngle)), Math.min(Math.PI - 1e-3, controls.maxPolarAngle));
    offset.setFromSpherical(spherical);
    camera.position.copy(target).add(offset);
  } else if (action.type === "dolly") {
    const distance = Math.min(Math.max(offset.length() * action.factor, controls.minDistance), controls.maxDistance);
    offset.setLength(distance);
    camera.position.copy(target).add(offset);
  } else if (action.type === "pan") {
    const distance = offset.length();
    right.setFromMatrixColumn(camera.matrix, 0).multiplyScalar(action.x * distance);
    up.setFromMatrixColumn(camera.matrix, 1).multiplyScalar(action.y * distance);
    camera.position.add(right).add(up);
    target.add(right).add(up);
  } else {
    return false;
  }
  camera.lookAt(target);
  controls.update();
  return true;
}
