/**
 * Animated camera moves for guided tours: fly from the current view to another along the path of
 * app/lib/tour.ts (the target glides, the camera swings around it instead of cutting through the model).
 */
import { easeInOutCubic, interpolateView } from "../lib/tour";
import { getCameraView, setCameraView, type CameraView } from "./camera-view";
import type { Viewer } from "./types";

const flights = new WeakMap<Viewer, { cancel: () => void }>();

/**
 * Ends the orbit controls' coasting after a drag (damping), which would otherwise carry the camera
 * past the view it flew to. Without damping, one update() applies what is left and clears it.
 */
function stopCoasting(viewer: Viewer): void {
  const { controls } = viewer.stage;
  const damping = controls.enableDamping;
  controls.autoRotate = false;
  controls.enableDamping = false;
  controls.update();
  controls.enableDamping = damping;
}

function prefersReducedMotion(): boolean {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * Moves the camera to `view` over `durationMs` (at once when the user prefers reduced motion).
 * A newer flight, or the user grabbing the controls, ends this one where it is; the promise then
 * resolves with false, and with true when the camera arrived.
 */
export function flyTo(viewer: Viewer, view: CameraView, { durationMs = 900 }: { durationMs?: number } = {}): Promise<boolean> {
  flights.get(viewer)?.cancel();
  stopCoasting(viewer);
  const { stage } = viewer;
  if (durationMs <= 0 || prefersReducedMotion()) {
    setCameraView(stage, view);
    return Promise.resolve(true);
  }
  const from = getCameraView(stage);
  const started = performance.now();
  return new Promise<boolean>((resolve) => {
    let frame = 0;
    const finish = (arrived: boolean) => {
      cancelAnimationFrame(frame);
      stage.controls.removeEventListener("start", interrupted);
      flights.delete(viewer);
      resolve(arrived);
    };
    const interrupted = () => finish(false);
    const step = (now: number) => {
      const t = Math.min(1, (now - started) / durationMs);
      setCameraView(stage, interpolateView(from, view, easeInOutCubic(t)));
      if (t >= 1) finish(true);
      else frame = requestAnimationFrame(step);
    };
    stage.controls.addEventListener("start", interrupted);
    flights.set(viewer, { cancel: interrupted });
    frame = requestAnimationFrame(step);
  });
}
