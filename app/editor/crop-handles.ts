import { projectCentres, type CropBox, type Mat4, type ScreenPoint } from "./selection";

/**
 * Drag handles for the clean-up editor's crop box (issue 35 item 8), pure: one handle at the centre of each of
 * the box's six faces, projected to the canvas; dragging one moves that face along its own axis by the part of
 * the pointer's movement that runs along the axis as it appears on screen.
 */
export interface CropHandle {
  end: "min" | "max";
  axis: 0 | 1 | 2;
  x: number;
  y: number;
}

const AXES = [0, 1, 2] as const;

/** A face's centre in the splats' coordinates. */
function faceCentre(box: CropBox, end: "min" | "max", axis: number): [number, number, number] {
  const centre = AXES.map((a) => (box.min[a] + box.max[a]) / 2) as [number, number, number];
  centre[axis] = box[end][axis];
  return centre;
}

/** A point on the canvas (pixels), also beyond its edges; null behind the camera. */
function project(point: [number, number, number], m: Mat4, width: number, height: number): ScreenPoint | null {
  const [x, y, z] = point;
  const cw = m[3] * x + m[7] * y + m[11] * z + m[15];
  if (!(cw > 1e-9)) return null;
  const cx = m[0] * x + m[4] * y + m[8] * z + m[12];
  const cy = m[1] * x + m[5] * y + m[9] * z + m[13];
  return { x: ((cx / cw + 1) / 2) * width, y: ((1 - cy / cw) / 2) * height };
}

/** A handle is shown where its face's centre is in view. */
function inView(point: [number, number, number], matrix: Mat4, width: number, height: number): ScreenPoint | null {
  const [x, y] = projectCentres(Float32Array.from(point), matrix, width, height);
  return Number.isFinite(x) && Number.isFinite(y) ? { x, y } : null;
}

/** The handles on screen (those in front of the camera and inside the view). */
export function cropHandles(box: CropBox, matrix: Mat4, width: number, height: number): CropHandle[] {
  const handles: CropHandle[] = [];
  for (const axis of AXES) {
    for (const end of ["min", "max"] as const) {
      const at = inView(faceCentre(box, end, axis), matrix, width, height);
      if (at) handles.push({ end, axis, ...at });
    }
  }
  return handles;
}

/**
 * The box after dragging `handle` from `from` to `to` (pixels), as it was when the drag began (`start`): the face
 * moves by the pointer's movement along the axis' screen direction, never past the opposite face.
 * Unchanged when the axis points straight at the viewer (no screen direction to follow).
 */
export function dragCropFace(start: CropBox, handle: Pick<CropHandle, "end" | "axis">, from: ScreenPoint, to: ScreenPoint, matrix: Mat4, width: number, height: number): CropBox {
  const { end, axis } = handle;
  const size = Math.max(start.max[axis] - start.min[axis], 1e-6);
  const origin = faceCentre(start, end, axis);
  const along = [...origin] as [number, number, number];
  along[axis] += size; // one box length along the axis
  const p0 = project(origin, matrix, width, height);
  const p1 = project(along, matrix, width, height);
  if (!p0 || !p1) return start;
  const sx = p1.x - p0.x;
  const sy = p1.y - p0.y;
  const pixelsPerBox = Math.hypot(sx, sy);
  if (pixelsPerBox < 1) return start;
  const moved = ((to.x - from.x) * sx + (to.y - from.y) * sy) / (pixelsPerBox * pixelsPerBox); // in box lengths
  const next: CropBox = { min: [...start.min], max: [...start.max] };
  const gap = size * 1e-3;
  const value = start[end][axis] + moved * size;
  next[end][axis] = end === "min" ? Math.min(value, start.max[axis] - gap) : Math.max(value, start.min[axis] + gap);
  return next;
}
