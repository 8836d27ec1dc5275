import { describe, expect, it } from "vitest";
import { ChangeMarks } from "./change-marks";

describe("marks of what changed", () => {
  it("says whether what something shows changed after a mark (changedAfter) or at it too (changedSince)", () => {
    const marks = new ChangeMarks();
    marks.note("item:a", 5);
    expect(marks.changedAfter(["item:a"], 4)).toBe(true);
    expect(marks.changedAfter(["item:a"], 5)).toBe(false);
    expect(marks.changedSince(["item:a"], 5)).toBe(true);
    expect(marks.changedSince(["item:a"], 6)).toBe(false);
    expect(marks.changedAfter(["item:b", "user:u1"], 0)).toBe(false);
    expect(marks.changedAfter(["item:b", "item:a"], 0)).toBe(true);
  });

  it("counts 'all' as a change to everything, before and after it", () => {
    const marks = new ChangeMarks();
    marks.note("item:a", 1);
    marks.note("all", 2);
    expect(marks.changedAfter(["item:never-named"], 1)).toBe(true);
    expect(marks.changedAfter(["item:never-named"], 2)).toBe(false);
    marks.note("item:b", 3);
    expect(marks.changedAfter(["item:b"], 2)).toBe(true);
    expect(marks.changedAfter(["item:a"], 2)).toBe(false);
  });

  it("marks everything when more things changed than it remembers, so that none is missed", () => {
    const marks = new ChangeMarks(2);
    marks.note("item:a", 1);
    marks.note("item:b", 2);
    expect(marks.changedAfter(["item:c"], 2)).toBe(false);
    marks.note("item:c", 3);
    expect(marks.changedAfter(["item:a"], 2)).toBe(true);
    expect(marks.changedAfter(["item:c"], 2)).toBe(true);
    expect(marks.changedAfter(["item:a"], 3)).toBe(false);
  });
});
