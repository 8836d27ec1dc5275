/**
 * The thumbnail camera: three.js's PerspectiveCamera (its maths run in Node), placed as the viewer's
 * OrbitControls place it (looking at the target with +Y up), so a thumbnail shows what the viewer opens with.
 */
import { Matrix4, PerspectiveCamera, Vector3 } from "three";
import type { OpeningCamera } from "~/viewer/camera-fit";

export interface RasterCamera {
  width: number;
  height: number;
  /** World → camera (three's view matrix; the camera looks down −Z), column-major. */
  view: Float64Array;
  /** World → clip (projection × view), column-major. */
  viewProjection: Float64Array;
  /** Focal lengths in pixels. */
  fx: number;
  fy: number;
  /** The principal point in pixels (the image's centre for the viewer's cameras; a capture camera's own). */
  cx: number;
  cy: number;
  near: number;
  /** tan(fov / 2) horizontally and vertically (of the wider side where the principal point is off centre). */
  tanHalfX: number;
  tanHalfY: number;
  /** The camera's position in the world. */
  eye: [number, number, number];
}

export function rasterCamera(pose: OpeningCamera, width: number, height: number): RasterCamera {
  const camera = new PerspectiveCamera(pose.fov, width / height, pose.near, pose.far);
  camera.position.fromArray(pose.position);
  camera.lookAt(new Vector3().fromArray(pose.target));
  camera.updateMatrixWorld(true);
  camera.updateProjectionMatrix();
  const viewProjection = new Matrix4().multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse);
  const tanHalfY = Math.tan((pose.fov * Math.PI) / 360);
  const tanHalfX = tanHalfY * (width / height);
  return {
    width,
    height,
    view: Float64Array.from(camera.matrixWorldInverse.elements),
    viewProjection: Float64Array.from(viewProjection.elements),
    fx: width / 2 / tanHalfX,
    fy: height / 2 / tanHalfY,
    cx: width / 2,
    cy: height / 2,
    near: pose.near,
    tanHalfX,
    tanHalfY,
    eye: [...pose.position],
  };
}

/** A direction given in the camera's frame (x right, y up, z towards the viewer), in the world. */
export function cameraToWorldDirection(camera: RasterCamera, d: [number, number, number]): [number, number, number] {
  const m = camera.view; // rotation part is orthonormal: its transpose is the inverse
  const x = m[0] * d[0] + m[1] * d[1] + m[2] * d[2];
  const y = m[4] * d[0] + m[5] * d[1] + m[6] * d[2];
  const z = m[8] * d[0] + m[9] * d[1] + m[10] * d[2];
  const len = Math.hypot(x, y, z) || 1;
  return [x / len, y / len, z / len];
}
