import { describe, expect, it } from "vitest";
import { matchPairs } from "./match-pairs";

describe("pairs for large photo sets", () => {
  it("matches neighbours in capture order and every photo with spread keyframes, without duplicates", () => {
    const names = Array.from({ length: 100 }, (_, i) => `image-${String(i + 1).padStart(3, "0")}.jpg`);
    const pairs = matchPairs(names, { window: 5, keyframes: 10 });
    const ids = new Set(pairs.map(([a, b]) => `${a}|${b}`));
    expect(ids.size).toBe(pairs.length);
    expect(ids.has("image-002.jpg|image-007.jpg")).toBe(true);
    expect(ids.has("image-002.jpg|image-009.jpg")).toBe(false);
    // image-091 (a keyframe) is matched with image-002: the loop closes.
    expect(ids.has("image-002.jpg|image-091.jpg")).toBe(true);
    expect(pairs.length).toBeLessThan((100 * 99) / 2 / 3);
  });
});
