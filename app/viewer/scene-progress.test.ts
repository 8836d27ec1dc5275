import { describe, expect, it } from "vitest";
import { sumProgress } from "./scene-progress";

describe("sumProgress", () => {
  it("adds the bytes of all parts once every size is known", () => {
    expect(
      sumProgress([
        { loaded: 100, total: 400 },
        { loaded: 50, total: 50 },
        { loaded: 0, total: 550 },
      ]),
    ).toEqual({ loaded: 150, total: 1000 });
  });

  it("has no total while a part has not started or sent no size", () => {
    expect(sumProgress([{ loaded: 100, total: 400 }, null])).toEqual({ loaded: 100, total: null });
    expect(sumProgress([{ loaded: 100, total: 400 }, { loaded: 7, total: null }])).toEqual({ loaded: 107, total: null });
  });

  it("has no total for no parts", () => {
    expect(sumProgress([])).toEqual({ loaded: 0, total: null });
  });
});
