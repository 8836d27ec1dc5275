import { Group, PerspectiveCamera, Vector3 } from "three";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";
import { describe, expect, it, vi } from "vitest";
import { Emitter } from "./emitter";
import type { LoadedModel } from "./loaded-model";
import type { NavigationMode, Viewer, ViewerEvents } from "./types";
import type { ViewerContext } from "./viewer-context";
import { createViewerInput } from "./viewer-input";

const model: LoadedModel = { kind: "mesh", object: new Group(), bounds: { min: [-1, -1, -1], max: [1, 1, 1] }, dispose: () => undefined };

/** A canvas as far as the input controller uses it (no DOM in unit tests). */
function fakeCanvas() {
  const ownerDocument = new EventTarget();
  return Object.assign(new EventTarget(), { ownerDocument, style: { cursor: "" }, clientHeight: 100, focus: vi.fn() });
}

function rig({ withModel = true } = {}) {
  const camera = new PerspectiveCamera(45, 1, 0.01, 100);
  camera.position.set(0, 0, 5);
  const controls = new OrbitControls(camera); // no DOM element: no listeners
  controls.minDistance = 1;
  controls.maxDistance = 10;
  controls.update();
  controls.saveState();
  controls.autoRotate = true;
  const canvas = fakeCanvas();
  const events = new Emitter<ViewerEvents>();
  const modes: NavigationMode[] = [];
  events.on("navigation", (mode) => modes.push(mode));
  const ctx = {
    settings: { fullscreenElement: {} },
    events,
    canvas,
    camera,
    controls,
    disposed: false,
    model: withModel ? model : null,
    interactions: 0,
    fly: null,
    requestRender: vi.fn(),
  } as unknown as ViewerContext;
  const viewer = vi.fn(() => ({}) as Viewer);
  const input = createViewerInput(ctx, viewer);
  return { ctx, camera, controls, canvas, input, modes, viewer };
}

function key(type: "keydown" | "keyup", name: string, extra: { shiftKey?: boolean } = {}) {
  return Object.assign(new Event(type, { cancelable: true }), { key: name, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, ...extra });
}

describe("createViewerInput", () => {
  it("leaves keys alone until a model is on show", () => {
    const { canvas, input, modes } = rig({ withModel: false });
    const press = key("keydown", "m");
    canvas.dispatchEvent(press);
    expect(press.defaultPrevented).toBe(false);
    expect(input.navigationMode).toBe("orbit");
    expect(modes).toEqual([]);
  });

  it("switches to fly mode with M and back, announcing each change", () => {
    const { ctx, canvas, controls, input, modes } = rig();
    const press = key("keydown", "m");
    canvas.dispatchEvent(press);
    expect(press.defaultPrevented).toBe(true);
    expect(input.navigationMode).toBe("fly");
    expect(ctx.fly?.active).toBe(true);
    expect(controls.enabled).toBe(false);
    expect(ctx.interactions).toBe(1); // entering fly mode counts as moving the camera
    canvas.dispatchEvent(key("keydown", "M"));
    expect(input.navigationMode).toBe("orbit");
    expect(ctx.fly?.active).toBe(false);
    expect(controls.enabled).toBe(true);
    expect(modes).toEqual(["fly", "orbit"]);
  });

  it("orbits with an arrow key: the camera turns at the same distance, autorotate stops, a frame is asked for", () => {
    const { ctx, camera, canvas, controls } = rig();
    canvas.dispatchEvent(key("keydown", "ArrowLeft"));
    expect(camera.position.x).not.toBeCloseTo(0, 3);
    expect(camera.position.distanceTo(controls.target)).toBeCloseTo(5, 6);
    expect(controls.autoRotate).toBe(false);
    expect(ctx.interactions).toBe(1);
    expect(ctx.requestRender).toHaveBeenCalled();
  });

  it("moves in fly mode while a key is held; key-up and losing focus stop it", () => {
    const { ctx, camera, canvas } = rig();
    canvas.dispatchEvent(key("keydown", "m"));
    canvas.dispatchEvent(key("keydown", "w"));
    const before = camera.position.z;
    expect(ctx.fly?.update(0.1)).toBe(true);
    expect(camera.position.z).toBeLessThan(before); // forward: towards the target at the origin
    canvas.dispatchEvent(key("keyup", "w"));
    expect(ctx.fly?.update(0.1)).toBe(false);
    canvas.dispatchEvent(key("keydown", "w"));
    canvas.dispatchEvent(new Event("blur"));
    expect(ctx.fly?.update(0.1)).toBe(false);
  });

  it("leaves fly mode on Escape anywhere on the page, except in a text field or when the canvas handled it", () => {
    const { canvas, input } = rig();
    input.setNavigationMode("fly");
    const inField = key("keydown", "Escape");
    Object.defineProperty(inField, "target", { value: { tagName: "INPUT", isContentEditable: false } });
    canvas.ownerDocument.dispatchEvent(inField);
    expect(input.navigationMode).toBe("fly");
    const handled = key("keydown", "Escape");
    handled.preventDefault();
    canvas.ownerDocument.dispatchEvent(handled);
    expect(input.navigationMode).toBe("fly");
    canvas.ownerDocument.dispatchEvent(key("keydown", "Escape"));
    expect(input.navigationMode).toBe("orbit");
  });

  it("resets to the saved view with R, leaving fly mode", () => {
    const { camera, canvas, input } = rig();
    input.setNavigationMode("fly");
    camera.position.set(3, 2, 1);
    canvas.dispatchEvent(key("keydown", "r"));
    expect(input.navigationMode).toBe("orbit");
    expect(camera.position.distanceTo(new Vector3(0, 0, 5))).toBeCloseTo(0, 6);
  });

  it("focuses the canvas on a click", () => {
    const { canvas } = rig();
    canvas.dispatchEvent(new Event("pointerdown"));
    expect(canvas.focus).toHaveBeenCalledWith({ preventScroll: true });
  });

  it("finds no surface to focus on while no model is on show", () => {
    const { input, viewer } = rig({ withModel: false });
    expect(input.focusAt(10, 10)).toBe(false);
    expect(viewer).not.toHaveBeenCalled();
  });

  it("stops listening once disposed, and no longer changes mode", () => {
    const { ctx, canvas, input, modes } = rig();
    input.dispose();
    canvas.dispatchEvent(key("keydown", "m"));
    canvas.dispatchEvent(new Event("pointerdown"));
    expect(input.navigationMode).toBe("orbit");
    expect(canvas.focus).not.toHaveBeenCalled();
    ctx.disposed = true;
    input.setNavigationMode("fly");
    expect(input.navigationMode).toBe("orbit");
    expect(modes).toEqual([]);
  });
});
