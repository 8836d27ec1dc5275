/**
 * The viewer's input: keys on the canvas (orbit steps, reset, fullscreen, fly mode and its movement keys),
 * Escape anywhere on the page to leave fly mode, a click focusing the canvas, double-click / double-tap to
 * focus a surface point (focusAt), and the navigation mode (orbit or fly: fly-navigation.ts).
 */
import { Vector3 } from "three";
import { flyTo } from "./camera-flight";
import { createFlyNavigation } from "./fly-navigation";
import { onDoubleActivate } from "./focus-gesture";
import { toggleFullscreen as toggleElementFullscreen } from "./fullscreen";
import { applyOrbitStep, keyAction } from "./keyboard-navigation";
import { pickSurface } from "./picking";
import type { NavigationMode, Viewer } from "./types";
import type { ViewerContext } from "./viewer-context";

export interface ViewerInput {
  readonly navigationMode: NavigationMode;
  setNavigationMode(mode: NavigationMode): void;
  /** Back to the opening view; leaves fly mode. */
  resetView(): void;
  /** Double-click / double-tap: orbit around the surface point there, a little closer. */
  focusAt(clientX: number, clientY: number): boolean;
  /** Removes the listeners and leaves fly navigation (dispose()). */
  dispose(): void;
}

/**
 * Listens on the canvas and the controls; sets `ctx.fly`. `viewer` answers the viewer these inputs drive
 * (focusAt picks and flies through it).
 */
export function createViewerInput(ctx: ViewerContext, viewer: () => Viewer): ViewerInput {
  const { canvas, camera, controls } = ctx;
  const { fullscreenElement } = ctx.settings;
  let navigationMode: NavigationMode = "orbit";

  const countInteraction = () => {
    ctx.interactions++;
  };
  controls.addEventListener("start", countInteraction);

  function resetView(): void {
    setNavigationMode("orbit");
    controls.autoRotate = false;
    controls.reset(); // the state saved when the model was framed (or the saved opening view)
    ctx.requestRender();
  }

  function setNavigationMode(mode: NavigationMode): void {
    if (mode === navigationMode || ctx.disposed) return;
    navigationMode = mode;
    if (mode === "fly") {
      countInteraction();
      fly.enable();
    } else {
      fly.disable();
    }
    ctx.requestRender();
    ctx.events.emit("navigation", mode);
  }

  function focusAt(clientX: number, clientY: number): boolean {
    const hit = ctx.model ? pickSurface(viewer(), clientX, clientY) : null;
    if (!hit) return false;
    setNavigationMode("orbit");
    countInteraction();
    controls.autoRotate = false;
    const point = new Vector3().fromArray(hit.point);
    const away = camera.position.clone().sub(point);
    const distance = Math.min(Math.max(away.length() * 0.6, controls.minDistance * 2), controls.maxDistance);
    const position = point.clone().add(away.setLength(distance));
    void flyTo(viewer(), { target: hit.point, position: position.toArray() as [number, number, number] }, { durationMs: 600 });
    return true;
  }

  const fly = createFlyNavigation({
    camera,
    controls,
    canvas,
    speedScale: () => Math.max(controls.minDistance * 20, 1e-3), // ≈ the model's radius (camera-fit.ts)
    onChange: () => {
      ctx.requestRender();
    },
  });
  ctx.fly = fly;

  const onKeyDown = (event: KeyboardEvent) => {
    const action = keyAction(event, navigationMode);
    if (!action || !ctx.model) return;
    event.preventDefault();
    switch (action.type) {
      case "reset":
        resetView();
        break;
      case "fullscreen":
        void toggleElementFullscreen(fullscreenElement);
        break;
      case "toggle-mode":
        setNavigationMode(navigationMode === "fly" ? "orbit" : "fly");
        break;
      case "exit-fly":
        setNavigationMode("orbit");
        break;
      case "fly":
        fly.setKey(action.direction, true, event.shiftKey);
        break;
      default:
        countInteraction();
        controls.autoRotate = false;
        if (applyOrbitStep(camera, controls, action)) ctx.requestRender();
    }
  };
  const onKeyUp = (event: KeyboardEvent) => {
    const action = keyAction(event, "fly");
    if (action?.type === "fly") fly.setKey(action.direction, false, event.shiftKey);
  };
  // Escape leaves fly mode wherever the focus is: the toolbar button that entered it keeps the focus, and
  // the canvas handles its own keys (it marks them handled). Text fields keep their Escape.
  const onDocumentKeyDown = (event: KeyboardEvent) => {
    if (navigationMode !== "fly" || event.defaultPrevented || keyAction(event, "fly")?.type !== "exit-fly") return;
    const target = event.target as HTMLElement | null;
    if (target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))) return;
    setNavigationMode("orbit");
  };
  const onBlur = () => fly.releaseKeys();
  // A click gives the canvas keyboard focus (OrbitControls cancels the pointer's default actions).
  const onPointerDown = () => canvas.focus({ preventScroll: true });
  canvas.addEventListener("keydown", onKeyDown);
  canvas.addEventListener("keyup", onKeyUp);
  canvas.ownerDocument.addEventListener("keydown", onDocumentKeyDown);
  canvas.addEventListener("blur", onBlur);
  canvas.addEventListener("pointerdown", onPointerDown);
  const detachFocusGesture = onDoubleActivate(canvas, (x, y) => {
    focusAt(x, y);
  });

  function dispose(): void {
    fly.dispose();
    detachFocusGesture();
    canvas.removeEventListener("keydown", onKeyDown);
    canvas.ownerDocument.removeEventListener("keydown", onDocumentKeyDown);
    canvas.removeEventListener("keyup", onKeyUp);
    canvas.removeEventListener("blur", onBlur);
    canvas.removeEventListener("pointerdown", onPointerDown);
    controls.removeEventListener("start", countInteraction);
  }

  return {
    get navigationMode() {
      return navigationMode;
    },
    setNavigationMode,
    resetView,
    focusAt,
    dispose,
  };
}
