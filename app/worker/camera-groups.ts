/**
 * Which photos share one camera's intrinsics in COLMAP (issue 38): those of one size taken by one camera
 * model at one focal length. A phone's portrait and landscape shots, its wide and tele lenses, or two
 * people's phones are different groups; each group gets one camera, refined from all its photos. Pure.
 */
/** What decides a photo's camera: its upright size, the camera that took it, the lens's focal length. */
export interface CameraIdentity {
  /** Upright pixel size of the frame. */
  width: number;
  height: number;
  make: string | null;
  model: string | null;
  /** EXIF FocalLength (mm) and FocalLengthIn35mmFilm; null when absent. */
  focalLength: number | null;
  focalLengthIn35mmFilm: number | null;
}

export interface FrameCamera extends CameraIdentity {
  frame: string;
}

export interface CameraGroup extends CameraIdentity {
  /** The frames of the group, in the order given. */
  frames: string[];
}

/** Groups frames by (width, height, make, model, focal lengths); groups in the order of their first frame. */
export function groupCameras(frames: FrameCamera[]): CameraGroup[] {
  const groups = new Map<string, CameraGroup>();
  for (const { frame, ...camera } of frames) {
    const key = JSON.stringify([camera.width, camera.height, camera.make, camera.model, camera.focalLength, camera.focalLengthIn35mmFilm]);
    const group = groups.get(key);
    if (group) group.frames.push(frame);
    else groups.set(key, { frames: [frame], ...camera });
  }
  return [...groups.values()];
}
