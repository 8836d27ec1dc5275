/**
 * Screen-space overlays on the viewer (hotspots, measuring marks): projects world points to CSS
 * pixels of an overlay element laid over the canvas, and says when they need re-placing (after
 * every drawn frame and when the overlay changes size).
 */
import { Vector3 } from "three";
import type { Vec3 } from "./bounds";
import type { Viewer } from "./types";

export interface ScreenPoint {
  x: number;
  y: number;
}

export interface Overlay {
  readonly layer: HTMLElement;
  /** Where a world point shows in the layer, or null when it is behind the camera. */
  project(point: Vec3): ScreenPoint | null;
  /** Whether the side of a surface with this normal at `point` faces the camera. */
  facesCamera(point: Vec3, normal: Vec3): boolean;
  /** Runs `listener` whenever projected positions may have changed; returns the unsubscribe function. */
  onUpdate(listener: () => void): () => void;
  dispose(): void;
}

export function createOverlay(viewer: Viewer, layer: HTMLElement): Overlay {
  const { camera } = viewer.stage;
  const listeners = new Set<() => void>();
  const scratch = new Vector3();
  let frame = 0;

  const notify = () => {
    for (const listener of [...listeners]) listener();
  };
  const offRender = viewer.on("render", notify);
  // A resize re-renders too, but the layer may move without the canvas resizing (page layout).
  const resizeObserver = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(() => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(notify);
  });
  resizeObserver?.observe(layer);

  return {
    layer,
    project(point) {
      scratch.set(point[0], point[1], point[2]).applyMatrix4(camera.matrixWorldInverse);
      if (scratch.z >= -camera.near) return null; // behind (or at) the camera
      scratch.applyMatrix4(camera.projectionMatrix);
      const canvasRect = viewer.canvas.getBoundingClientRect();
      const layerRect = layer.getBoundingClientRect();
      return {
        x: canvasRect.left - layerRect.left + ((scratch.x + 1) / 2) * canvasRect.width,
        y: canvasRect.top - layerRect.top + ((1 - scratch.y) / 2) * canvasRect.height,
      };
    },
    facesCamera(point, normal) {
      const toCamera = scratch.copy(camera.position).sub(new Vector3(point[0], point[1], point[2]));
      return toCamera.dot(new Vector3(normal[0], normal[1], normal[2])) > 0;
    },
    onUpdate(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose() {
      offRender();
      resizeObserver?.disconnect();
      cancelAnimationFrame(frame);
      listeners.clear();
    },
  };
}
