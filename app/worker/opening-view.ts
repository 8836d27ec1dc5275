import { cameraCenter, rotationMatrix, type ColmapCamera, type ColmapImage } from "./colmap-model";

/**
 * Where a scan opens (issue 14, item 6): seen from one of its capture cameras, at that camera's field
 * of view, looking at the subject. The scan is already upright (mapping stage); the viewer shows the
 * model frame flipped to screen-up, (x, y, z) → (x, −y, −z) (app/viewer/load-splat.ts, GLB export),
 * so the view is returned in that world frame, the shape item settings store.
 *
 * Which camera: for a capture that goes around the subject (an orbit), the first frame — the one the
 * creator started with; for a capture from one side, the most central camera (the one looking most
 * directly along the cameras' mean direction to the subject).
 */
export interface OpeningView {
  position: [number, number, number];
  target: [number, number, number];
  /** Vertical field of view, degrees. */
  fov: number;
  /** Width ÷ height of the capture photo: a narrower screen widens the view to keep what the photo showed. */
  aspect: number;
  /** The capture frame the view comes from. */
  frame: string;
}

type Vec3 = [number, number, number];
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const norm = (a: Vec3) => Math.hypot(a[0], a[1], a[2]);
const flip = (a: Vec3): Vec3 => [a[0], -a[1], -a[2]];
const round = (v: number) => Math.round(v * 1e5) / 1e5;

/** The camera's viewing direction in the world (its +z axis). */
function viewAxis(image: Pick<ColmapImage, "q">): Vec3 {
  const r = rotationMatrix(image.q);
  return [r[6], r[7], r[8]];
}

/** The largest angular gap (radians) between cameras seen around the vertical axis through `subject`. */
export function largestGapAroundSubject(centres: Vec3[], subject: Vec3): number {
  // Upright model frame: y is vertical (down), so the orbit angle is measured in the x–z plane.
  const angles = centres.map((c) => Math.atan2(c[2] - subject[2], c[0] - subject[0])).sort((a, b) => a - b);
  if (angles.length < 2) return 2 * Math.PI;
  let gap = angles[0] + 2 * Math.PI - angles[angles.length - 1];
  for (let i = 1; i < angles.length; i++) gap = Math.max(gap, angles[i] - angles[i - 1]);
  return gap;
}

export function openingView(input: {
  images: Array<Pick<ColmapImage, "q" | "t" | "name" | "cameraId">>;
  cameras: Array<Pick<ColmapCamera, "id" | "width" | "height" | "params" | "model">>;
  /** The subject's centre in the model frame (the region of interest, or the points' median). */
  subject: Vec3;
}): OpeningView | null {
  const images = [...input.images].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (images.length === 0) return null;
  const centres = images.map((image) => cameraCenter(image) as Vec3);
  const orbit = largestGapAroundSubject(centres, input.subject) < Math.PI / 2;
  let chosen = 0;
  if (!orbit) {
    const mean: Vec3 = [0, 1, 2].map((k) => centres.reduce((s, c) => s + c[k], 0) / centres.length) as Vec3;
    const towards = sub(mean, input.subject);
    let best = -Infinity;
    centres.forEach((c, i) => {
      const away = sub(c, input.subject);
      const cos = dot(away, towards) / (norm(away) * norm(towards) || 1);
      if (cos > best + 1e-9) {
        best = cos;
        chosen = i;
      }
    });
  }
  const image = images[chosen];
  const centre = centres[chosen];
  const axis = viewAxis(image);
  // The orbit target: on the camera's optical axis, as far as the subject is along it.
  const depth = Math.max(1e-3, dot(sub(input.subject, centre), axis));
  const target: Vec3 = [centre[0] + axis[0] * depth, centre[1] + axis[1] * depth, centre[2] + axis[2] * depth];
  const camera = input.cameras.find((c) => c.id === image.cameraId);
  const fy = camera ? focalY(camera) : null;
  const fov = camera && fy ? (2 * Math.atan(camera.height / 2 / fy) * 180) / Math.PI : 50;
  return {
    position: flip(centre).map(round) as Vec3,
    target: flip(target).map(round) as Vec3,
    fov: Math.round(Math.min(120, Math.max(5, fov)) * 100) / 100,
    aspect: camera && camera.width > 0 && camera.height > 0 ? Math.round((camera.width / camera.height) * 1000) / 1000 : 1.5,
    frame: image.name,
  };
}

/** fy of a COLMAP camera (PINHOLE-like models carry fx, fy; the simple ones a single f). */
function focalY(camera: Pick<ColmapCamera, "params" | "model">): number | null {
  const twoFocals = ["PINHOLE", "OPENCV", "OPENCV_FISHEYE", "FULL_OPENCV", "FOV", "THIN_PRISM_FISHEYE"].includes(camera.model);
  const f = twoFocals ? camera.params[1] : camera.params[0];
  return Number.isFinite(f) && f > 0 ? f : null;
}
