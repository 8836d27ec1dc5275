import { describe, expect, it } from "vitest";
import { defaultSceneName } from "./scene-name";

describe("defaultSceneName", () => {
  it("names a new scene after the models it starts with", () => {
    expect(defaultSceneName(["cat"])).toBe("Scene with cat");
    expect(defaultSceneName(["cat", "guitar"])).toBe("Scene with cat and guitar");
    expect(defaultSceneName(["cat", "guitar", "bike"])).toBe("Scene with cat, guitar and bike");
    expect(defaultSceneName(["cat", "guitar", "bike", "lamp", "sofa"])).toBe("Scene with cat, guitar and 3 more");
  });

  it("calls an empty scene untitled and stays within the name limit", () => {
    expect(defaultSceneName([])).toBe("Untitled scene");
    expect(defaultSceneName(["  "])).toBe("Untitled scene");
    const long = defaultSceneName(["x".repeat(190), "y".repeat(190)]);
    expect(long.length).toBeLessThanOrEqual(200);
    expect(long.endsWith("…")).toBe(true);
  });
});
