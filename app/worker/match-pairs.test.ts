import { describe, expect, it } from "vitest";
import { matchPairs, pairsByOverlap } from "./match-pairs";

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

describe("pairs chosen by a pre-pass's overlap", () => {
  const names = Array.from({ length: 12 }, (_, i) => `image-${String(i + 1).padStart(3, "0")}.jpg`);
  const ids = (pairs: Array<[string, string]>) => pairs.map(([a, b]) => `${a.slice(6, 9)}-${b.slice(6, 9)}`);
  const partnersOf = (pairs: Array<[string, string]>, name: string) => pairs.filter((pair) => pair.includes(name)).map(([a, b]) => (a === name ? b : a).slice(6, 9)).sort();

  it("keeps each photo's strongest partners, not a weak pair both photos have better ones than, each pair once", () => {
    const verified = [
      { a: "image-001.jpg", b: "image-005.jpg", inliers: 80 },
      { a: "image-007.jpg", b: "image-001.jpg", inliers: 70 },
      { a: "image-005.jpg", b: "image-007.jpg", inliers: 60 },
      { a: "image-005.jpg", b: "image-009.jpg", inliers: 50 },
      { a: "image-007.jpg", b: "image-009.jpg", inliers: 40 },
      { a: "image-001.jpg", b: "image-009.jpg", inliers: 10 },
    ];
    const pairs = pairsByOverlap(names, verified, { partners: 2 });
    expect(new Set(ids(pairs)).size).toBe(pairs.length);
    // 001's two best are 005 and 007, 009's are 005 and 007: 001-009 is nobody's; 001-002 is the capture-order link.
    expect(partnersOf(pairs, "image-001.jpg")).toEqual(["002", "005", "007"]);
    expect(partnersOf(pairs, "image-009.jpg")).toEqual(["005", "007", "008", "010"]);
  });

  it("fills a photo the pre-pass tied to too few others with its nearest photos in capture order", () => {
    const verified = [{ a: "image-006.jpg", b: "image-012.jpg", inliers: 30 }];
    const pairs = pairsByOverlap(names, verified, { partners: 4 });
    expect(partnersOf(pairs, "image-006.jpg")).toEqual(expect.arrayContaining(["004", "005", "007", "012"]));
    // At the start of the set the nearest are all after it.
    expect(partnersOf(pairs, "image-001.jpg")).toEqual(["002", "003", "004", "005"]);
    for (const name of names) expect(partnersOf(pairs, name).length).toBeGreaterThanOrEqual(4);
  });

  it("pairs every photo with every other when there are no more than `partners` others, and ignores names it does not know", () => {
    const few = names.slice(0, 4);
    const pairs = pairsByOverlap(few, [{ a: "image-001.jpg", b: "elsewhere.jpg", inliers: 99 }], { partners: 8 });
    expect(pairs).toHaveLength(6);
  });
});
