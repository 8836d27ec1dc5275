import type { CameraView } from "~/viewer/camera-view";
import type { Vec3 } from "~/viewer/bounds";

/**
 * A turntable (issue 35 item 2): the camera goes once around the model, about the vertical axis through the point it
 * looks at, starting from the opening view. Pure.
 */
export const TURNTABLE = { frames: 48, fps: 12, width: 480, height: 360, gifWidth: 320 } as const;

/** The camera of frame `index` of `frames`: the opening view turned by index/frames of a full turn. */
export function turntableView(opening: Required<Pick<CameraView, "position" | "target">> & { fov?: number }, index: number, frames: number): CameraView {
  const angle = (2 * Math.PI * index) / frames;
  const [tx, ty, tz] = opening.target;
  const dx = opening.position[0] - tx;
  const dz = opening.position[2] - tz;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const position: Vec3 = [tx + dx * cos + dz * sin, opening.position[1], tz - dx * sin + dz * cos];
  return { position, target: [tx, ty, tz], ...(opening.fov ? { fov: opening.fov } : {}) };
}
