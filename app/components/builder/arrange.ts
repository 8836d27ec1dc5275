/**
 * Lays models out side by side (the Builder's "arrange" for models just added to a scene): left to right
 * along +X in the given order, a small gap apart, their bottoms on one floor (y = 0) and their centres on
 * z = 0, the row centred on the origin — or, with `after`, continuing to the right of what is already there.
 * Pure maths on bounds, so it is tested without WebGL.
 */
export type Vec3 = [number, number, number];
export interface Box {
  min: Vec3;
  max: Vec3;
}

/** Gap between neighbours, as a fraction of the largest model's width. */
const GAP = 0.15;

/**
 * `boxes[i]`: model i's bounds in its own frame with its current scale applied (no rotation, no position).
 * Returns the position that puts each model in its place.
 */
export function arrangeInRow(boxes: Box[], after: Box | null = null): Vec3[] {
  if (boxes.length === 0) return [];
  const widths = boxes.map((box) => Math.max(box.max[0] - box.min[0], 0));
  const gap = Math.max(...widths, 1e-3) * GAP;
  const total = widths.reduce((sum, width) => sum + width, 0) + gap * (boxes.length - 1);
  let left = after ? after.max[0] + gap : -total / 2;
  const floor = after ? after.min[1] : 0;
  const depth = after ? (after.min[2] + after.max[2]) / 2 : 0;
  return boxes.map((box, index) => {
    const position: Vec3 = [left - box.min[0], floor - box.min[1], depth - (box.min[2] + box.max[2]) / 2];
    left += widths[index] + gap;
    return position;
  });
}

/** The box around several boxes (null for none). */
export function unionBoxes(boxes: Box[]): Box | null {
  if (boxes.length === 0) return null;
  return {
    min: [0, 1, 2].map((axis) => Math.min(...boxes.map((box) => box.min[axis]))) as Vec3,
    max: [0, 1, 2].map((axis) => Math.max(...boxes.map((box) => box.max[axis]))) as Vec3,
  };
}
