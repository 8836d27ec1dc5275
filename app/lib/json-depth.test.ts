import { describe, expect, it } from "vitest";
import { exceedsJsonDepth, MAX_JSON_DEPTH } from "./json-depth";

const nestedArrays = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
const nestedObjects = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth);

/** The depth of a parsed value, measured the plain recursive way (fine for the small values here). */
function depthOf(value: unknown): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depthOf));
  if (value && typeof value === "object") return 1 + Math.max(0, ...Object.values(value).map(depthOf));
  return 0;
}

describe("exceedsJsonDepth", () => {
  it("allows nesting up to the limit and refuses one level more, for arrays and objects", () => {
    for (const nested of [nestedArrays, nestedObjects]) {
      expect(exceedsJsonDepth(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
      expect(exceedsJsonDepth(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    }
    expect(exceedsJsonDepth('{"a":[{"b":[1]}]}', 4)).toBe(false);
    expect(exceedsJsonDepth('{"a":[{"b":[1]}]}', 3)).toBe(true);
  });

  it("counts depth, not the number of brackets: many siblings are shallow", () => {
    const wide = JSON.stringify(Array.from({ length: 1000 }, () => ({ a: [1, 2], b: { c: 3 } })));
    expect(exceedsJsonDepth(wide, 3)).toBe(false);
    expect(exceedsJsonDepth(wide, 2)).toBe(true);
  });

  it("ignores brackets inside strings, escaped quotes and escaped backslashes included", () => {
    expect(exceedsJsonDepth(JSON.stringify({ name: "[[[[{{{{" }), 1)).toBe(false);
    expect(exceedsJsonDepth(JSON.stringify({ name: '"[[[[' }), 1)).toBe(false);
    expect(exceedsJsonDepth(JSON.stringify({ "key [[[": '\\"]]]' }), 1)).toBe(false);
    // An escaped backslash ends before the quote: the string closes there and the brackets after it count.
    expect(exceedsJsonDepth('["\\\\",[[1]]]', 2)).toBe(true);
    expect(exceedsJsonDepth('["\\\\",[[1]]]', 3)).toBe(false);
  });

  it("agrees with the parsed value's depth on mixed values with tricky strings", () => {
    const strings = ["", "[", "]", "{", "}", '"', "\\", '\\"[', "\u2028{", "\u{1F600}["];
    let seed = 7;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const build = (depth: number): unknown => {
      if (depth === 0) return strings[next(strings.length)];
      const children = Array.from({ length: 1 + next(3) }, (_, i) => build(i === 0 ? depth - 1 : next(depth)));
      return next(2) ? children : Object.fromEntries(children.map((child, i) => [strings[next(strings.length)] + i, child]));
    };
    for (let round = 0; round < 200; round++) {
      const text = JSON.stringify(build(1 + next(12)));
      const depth = depthOf(JSON.parse(text));
      expect(exceedsJsonDepth(text, depth), text).toBe(false);
      expect(exceedsJsonDepth(text, depth - 1), text).toBe(true);
    }
  });

  it("measures a body nested 20,000 deep without running out of stack", () => {
    expect(exceedsJsonDepth(nestedArrays(20_000), MAX_JSON_DEPTH)).toBe(true);
    expect(exceedsJsonDepth(nestedObjects(20_000), MAX_JSON_DEPTH)).toBe(true);
  });

  it("reads scalars and empty text as depth 0", () => {
    for (const text of ["", "1", '"[[["', "null", "true"]) expect(exceedsJsonDepth(text, 0)).toBe(false);
  });
});
