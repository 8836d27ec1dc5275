import type { PerspectiveCamera } from "three";
import type { OrbitControls } from "three/addons/controls/OrbitControls.js";
import { boundsCenter, boundsRadius, type Bounds, type Vec3 } from "./bounds";
import { fitCamera, type CameraFit } from "./camera-fit";

/** Points the camera and orbit controls at `bounds`, with clipping planes and zoom limits to match. */
export function frameCamera(
  camera: PerspectiveCamera,
  controls: OrbitControls,
  bounds: Bounds,
  direction?: Vec3,
): CameraFit {
  const fit = fitCamera(boundsCenter(bounds), boundsRadius(bounds), camera.fov, camera.aspect, direction);
  camera.position.fromArray(fit.position);
  camera.near = fit.near;
  camera.far = fit.far;
  camera.updateProjectionMatrix();
  controls.target.fromArray(fit.target);
  controls.minDistance = fit.minDistance;
  controls.maxDistance = fit.maxDistance;
  controls.update();
  controls.saveState();
  return fit;
}
