import type { PerspectiveCamera } from "three";
import type { OrbitControls } from "three/addons/controls/OrbitControls.js";
import type { Vec3 } from "./bounds";
import type { ViewerStage } from "./types";
import { viewForAspect } from "./camera-fit";

/** A camera view: where the camera stands and the point it orbits (the shape item settings and annotations store). */
export interface CameraView {
  position: Vec3;
  target: Vec3;
  /** Vertical field of view in degrees; absent keeps the camera's own. */
  fov?: number;
  /** Width ÷ height of the frame it was composed in; a narrower frame widens it (viewForAspect). */
  aspect?: number;
}

/**
 * Puts the camera and the orbit target at `view`, widened for a frame narrower than the one it was composed in (up
 * to the subject's width when its bounding radius is given); the controls keep the distance inside the zoom limits.
 */
export function applyCameraView(camera: PerspectiveCamera, controls: OrbitControls, composed: CameraView, subjectRadius?: number): void {
  const view = viewForAspect(composed, camera.aspect, camera.fov, subjectRadius);
  camera.position.fromArray(view.position);
  if (view.fov !== undefined && view.fov !== camera.fov) {
    camera.fov = view.fov;
    camera.updateProjectionMatrix();
  }
  controls.target.fromArray(view.target);
  controls.update();
}

/** The current view, with the field of view, for saving it (item settings) or reporting it (the embed's postMessage API). */
export function getCameraView(stage: Pick<ViewerStage, "camera" | "controls">): CameraView {
  return {
    position: stage.camera.position.toArray() as Vec3,
    target: stage.controls.target.toArray() as Vec3,
    fov: Math.round(stage.camera.fov * 100) / 100,
    aspect: Math.round(stage.camera.aspect * 1000) / 1000,
  };
}

/** Moves a live viewer to `view`: stops autorotation (a chosen view should stay put) and draws a frame. */
export function setCameraView(stage: Pick<ViewerStage, "camera" | "controls" | "requestRender">, view: CameraView): void {
  stage.controls.autoRotate = false;
  applyCameraView(stage.camera, stage.controls, view);
  stage.requestRender();
}
