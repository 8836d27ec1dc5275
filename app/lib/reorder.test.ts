import { describe, expect, it } from "vitest";
import { checkCompleteOrder, moveEntry } from "./reorder";

describe("checkCompleteOrder", () => {
  const existing = ["a", "b", "c"];

  it("accepts every id exactly once, in any order", () => {
    expect(checkCompleteOrder({ requested: ["c", "a", "b"], existing, field: "ids" })).toBeNull();
    expect(checkCompleteOrder({ requested: [], existing: [], field: "ids" })).toBeNull();
  });

  it("names duplicates, unknown ids and missing ids", () => {
    expect(checkCompleteOrder({ requested: ["a", "a", "b", "c"], existing, field: "ids" })).toBe("ids names a more than once");
    expect(checkCompleteOrder({ requested: ["a", "b", "c", "x"], existing, field: "ids" })).toBe("ids contains unknown ids: x");
    expect(checkCompleteOrder({ requested: ["a", "c"], existing, field: "ids" })).toBe("ids must list every one of them; missing: b");
  });
});

describe("moveEntry", () => {
  it("moves one entry and keeps the others in order", () => {
    expect(moveEntry(["a", "b", "c", "d"], 0, 2)).toEqual(["b", "c", "a", "d"]);
    expect(moveEntry(["a", "b", "c", "d"], 3, 0)).toEqual(["d", "a", "b", "c"]);
  });

  it("leaves the list as it was for moves past either end", () => {
    expect(moveEntry(["a", "b"], 0, -1)).toEqual(["a", "b"]);
    expect(moveEntry(["a", "b"], 1, 2)).toEqual(["a", "b"]);
  });
});
