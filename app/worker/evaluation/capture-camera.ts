/**
 * A capture camera of the scan (COLMAP's undistorted PINHOLE camera and an image's pose) as the software
 * renderers' RasterCamera in the viewer's frame, so the published model is drawn exactly where the photo saw
 * it. The scan's frame is COLMAP's (x right, y down, z forward); the viewer shows splats and scan meshes
 * turned by the half turn about X, F = diag(1, −1, −1) (app/thumbnails/read-splats.server.ts, the mesh
 * export), and three's cameras look down −Z with y up, which is F again in the camera's frame. So the view
 * matrix is F·R·F with translation F·t, and the projection keeps the camera's own principal point. Pure.
 */
import type { RasterCamera } from "~/thumbnails/camera";
import { cameraCenter, rotationMatrix, type ColmapCamera, type ColmapImage } from "../colmap-model";

export interface PinholeIntrinsics {
  width: number;
  height: number;
  fx: number;
  fy: number;
  cx: number;
  cy: number;
}

/** Where each distorting model keeps its distortion coefficients (COLMAP's parameter order). */
const DISTORTION_FROM: Record<string, { at: number; focal: "one" | "two" }> = {
  SIMPLE_RADIAL: { at: 3, focal: "one" },
  RADIAL: { at: 3, focal: "one" },
  OPENCV: { at: 4, focal: "two" },
};

/**
 * A COLMAP camera without distortion as fx, fy, cx, cy: what `image_undistorter` writes (PINHOLE), or a distorting
 * model whose coefficients are all zero (the undistorter leaves such a camera as it is).
 */
export function pinholeIntrinsics(camera: ColmapCamera): PinholeIntrinsics {
  const p = camera.params;
  const size = { width: camera.width, height: camera.height };
  if (camera.model === "PINHOLE") return { ...size, fx: p[0], fy: p[1], cx: p[2], cy: p[3] };
  if (camera.model === "SIMPLE_PINHOLE") return { ...size, fx: p[0], fy: p[0], cx: p[1], cy: p[2] };
  const distorting = DISTORTION_FROM[camera.model];
  if (distorting && p.slice(distorting.at).every((k) => k === 0)) {
    return distorting.focal === "one" ? { ...size, fx: p[0], fy: p[0], cx: p[1], cy: p[2] } : { ...size, fx: p[0], fy: p[1], cx: p[2], cy: p[3] };
  }
  throw new Error(`camera ${camera.id} is a ${camera.model} camera with distortion: undistort the photos first`);
}

const SIGN = [1, -1, -1];

/**
 * The renderers' camera for a capture view. `near` is in scene units (splats closer than it are not drawn; the
 * mesh is clipped there); `far` only bounds the mesh's depth range.
 */
export function captureRasterCamera(intrinsics: PinholeIntrinsics, pose: Pick<ColmapImage, "q" | "t">, near: number, far: number): RasterCamera {
  const { width, height, fx, fy, cx, cy } = intrinsics;
  const r = rotationMatrix(pose.q);
  // Column-major 4×4: element (row i, column j) at j * 4 + i.
  const view = new Float64Array(16);
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) view[j * 4 + i] = SIGN[i] * r[i * 3 + j] * SIGN[j];
    view[12 + i] = SIGN[i] * pose.t[i];
  }
  view[15] = 1;
  // OpenGL-style projection with the principal point where the camera has it: x_ndc = 2u/w − 1, y_ndc = 1 − 2v/h.
  const projection = new Float64Array(16);
  projection[0] = (2 * fx) / width;
  projection[8] = 1 - (2 * cx) / width;
  projection[5] = (2 * fy) / height;
  projection[9] = -(1 - (2 * cy) / height);
  projection[10] = -(far + near) / (far - near);
  projection[14] = (-2 * far * near) / (far - near);
  projection[11] = -1;
  const viewProjection = new Float64Array(16);
  for (let i = 0; i < 4; i++) {
    for (let j = 0; j < 4; j++) {
      let sum = 0;
      for (let k = 0; k < 4; k++) sum += projection[k * 4 + i] * view[j * 4 + k];
      viewProjection[j * 4 + i] = sum;
    }
  }
  const centre = cameraCenter(pose);
  return {
    width,
    height,
    view,
    viewProjection,
    fx,
    fy,
    cx,
    cy,
    near,
    tanHalfX: Math.max(cx, width - cx) / fx,
    tanHalfY: Math.max(cy, height - cy) / fy,
    eye: [centre[0], -centre[1], -centre[2]],
  };
}
