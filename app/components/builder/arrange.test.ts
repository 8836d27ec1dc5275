import { describe, expect, it } from "vitest";
import { arrangeInRow, unionBoxes, type Box } from "./arrange";

const box = (min: [number, number, number], max: [number, number, number]): Box => ({ min, max });
const moved = (b: Box, p: [number, number, number]): Box => ({
  min: [b.min[0] + p[0], b.min[1] + p[1], b.min[2] + p[2]],
  max: [b.max[0] + p[0], b.max[1] + p[1], b.max[2] + p[2]],
});

describe("arrangeInRow", () => {
  it("puts models side by side without overlap, on one floor, centred on the origin", () => {
    const boxes = [box([-1, -1, -1], [1, 1, 1]), box([0, 2, 5], [4, 3, 6]), box([-0.5, -3, -0.5], [0.5, 0, 0.5])];
    const placed = arrangeInRow(boxes).map((p, i) => moved(boxes[i], p));
    for (let i = 1; i < placed.length; i++) expect(placed[i].min[0]).toBeGreaterThan(placed[i - 1].max[0]);
    for (const b of placed) {
      expect(b.min[1]).toBeCloseTo(0);
      expect((b.min[2] + b.max[2]) / 2).toBeCloseTo(0);
    }
    const row = unionBoxes(placed)!;
    expect((row.min[0] + row.max[0]) / 2).toBeCloseTo(0);
  });

  it("continues to the right of what the scene already shows, on its floor", () => {
    const existing = box([-2, -1, 3], [2, 1, 5]);
    const [position] = arrangeInRow([box([-1, -1, -1], [1, 1, 1])], existing);
    const placed = moved(box([-1, -1, -1], [1, 1, 1]), position);
    expect(placed.min[0]).toBeGreaterThan(existing.max[0]);
    expect(placed.min[1]).toBeCloseTo(existing.min[1]);
    expect((placed.min[2] + placed.max[2]) / 2).toBeCloseTo(4);
  });

  it("answers nothing for nothing", () => {
    expect(arrangeInRow([])).toEqual([]);
    expect(unionBoxes([])).toBeNull();
  });
});
