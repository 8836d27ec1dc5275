import { describe, expect, it } from "vitest";
import { SLUG_PATTERN, slugify } from "./slug";

describe("slugify", () => {
  it("makes lowercase hyphenated slugs, dropping accents and punctuation", () => {
    expect(slugify("Art & sculpture")).toBe("art-and-sculpture");
    expect(slugify("  Places, scenes!  ")).toBe("places-scenes");
    expect(slugify("Café Crème")).toBe("cafe-creme");
  });

  it("is empty when nothing usable is left, and always matches the slug pattern otherwise", () => {
    expect(slugify("!!!")).toBe("");
    for (const name of ["A  b", "x".repeat(100), "Über-Straße 3D", "a-".repeat(40)]) expect(slugify(name)).toMatch(SLUG_PATTERN);
  });
});
