import { describe, expect, it } from "vitest";
import { EditHistory } from "./edit-history";

describe("EditHistory", () => {
  it("deletes, undoes and redoes steps, counting the kept splats", () => {
    const history = new EditHistory(10);
    expect([history.kept, history.canUndo, history.canRedo]).toEqual([10, false, false]);
    expect(history.delete([1, 2, 3])).toBe(true);
    expect(history.delete([3, 4])).toBe(true); // 3 is already gone: only 4 counts
    expect(history.kept).toBe(6);
    expect(Array.from(history.deleted)).toEqual([0, 1, 1, 1, 1, 0, 0, 0, 0, 0]);
    expect(history.undo()).toBe(true);
    expect(history.kept).toBe(7);
    expect(history.deleted[3]).toBe(1);
    expect(history.deleted[4]).toBe(0);
    expect(history.undo()).toBe(true);
    expect([history.kept, history.canUndo, history.canRedo]).toEqual([10, false, true]);
    expect(history.undo()).toBe(false);
    expect(history.redo()).toBe(true);
    expect(history.redo()).toBe(true);
    expect(history.redo()).toBe(false);
    expect(history.kept).toBe(6);
  });

  it("drops the undone steps when a new one is made, and ignores empty or out-of-range steps", () => {
    const history = new EditHistory(5);
    history.delete([0]);
    history.delete([1]);
    history.undo();
    expect(history.delete([4, 9, -1])).toBe(true);
    expect(history.canRedo).toBe(false);
    expect(Array.from(history.deleted)).toEqual([1, 0, 0, 0, 1]);
    expect(history.delete([])).toBe(false);
    expect(history.delete([0])).toBe(false);
    expect(history.undo()).toBe(true);
    expect(history.undo()).toBe(true);
    expect(history.kept).toBe(5);
  });
});
