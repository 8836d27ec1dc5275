import { describe, expect, it } from "vitest";
import { cropHandles, dragCropFace } from "./crop-handles";
import type { CropBox } from "./selection";

// An orthographic view straight down -z: clip x = x / 2, clip y = y / 2 (column-major, w = 1). On a 400 × 400
// canvas a unit is 100 px; +x is to the right, +y is up (pixels grow downwards).
const ortho = [0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, -0.1, 0, 0, 0, 0, 1];
const box: CropBox = { min: [-1, -1, -1], max: [1, 1, 1] };

describe("crop box handles", () => {
  it("sit at the centres of the faces, as the camera sees them", () => {
    const handles = cropHandles(box, ortho, 400, 400);
    const at = (end: string, axis: number) => handles.find((h) => h.end === end && h.axis === axis)!;
    expect(at("max", 0)).toMatchObject({ x: 300, y: 200 });
    expect(at("min", 0)).toMatchObject({ x: 100, y: 200 });
    expect(at("max", 1)).toMatchObject({ x: 200, y: 100 });
    expect(at("min", 1)).toMatchObject({ x: 200, y: 300 });
    expect(handles).toHaveLength(6); // the z faces project onto the centre
  });

  it("move their face by the pointer's movement along the axis on screen, ignoring movement across it", () => {
    // Dragging the +x face 50 px right and 80 px down: half a unit along x, the vertical part ignored.
    const dragged = dragCropFace(box, { end: "max", axis: 0 }, { x: 300, y: 200 }, { x: 350, y: 280 }, ortho, 400, 400);
    expect(dragged.max[0]).toBeCloseTo(1.5, 9);
    expect(dragged.min).toEqual(box.min);
    expect(dragged.max.slice(1)).toEqual([1, 1]);
    // The -y face (bottom on screen) dragged 100 px up: one unit towards +y.
    expect(dragCropFace(box, { end: "min", axis: 1 }, { x: 200, y: 300 }, { x: 200, y: 200 }, ortho, 400, 400).min[1]).toBeCloseTo(0, 9);
  });

  it("never pass the opposite face, and stay put when the axis points at the viewer", () => {
    const crushed = dragCropFace(box, { end: "max", axis: 0 }, { x: 300, y: 200 }, { x: 0, y: 200 }, ortho, 400, 400);
    expect(crushed.max[0]).toBeGreaterThan(crushed.min[0]);
    expect(crushed.max[0]).toBeCloseTo(-1 + 2e-3, 9);
    expect(dragCropFace(box, { end: "max", axis: 2 }, { x: 200, y: 200 }, { x: 260, y: 200 }, ortho, 400, 400)).toEqual(box);
  });
});
