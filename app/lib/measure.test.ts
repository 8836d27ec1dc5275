import { describe, expect, it } from "vitest";
import { formatLength, metersPerUnitFromKnownLength, modelDistance, toRealLength } from "./measure";

describe("measuring", () => {
  it("measures straight-line distance in model units", () => {
    expect(modelDistance([0, 0, 0], [3, 4, 0])).toBe(5);
    expect(modelDistance([1, 2, 3], [1, 2, 3])).toBe(0);
    expect(modelDistance([-1, -1, -1], [1, 1, 1])).toBeCloseTo(Math.sqrt(12));
  });

  it("treats a model unit as a metre until the owner sets a scale", () => {
    expect(toRealLength({ modelLength: 2, metersPerUnit: null, unit: "m" })).toBe(2);
    expect(toRealLength({ modelLength: 2, metersPerUnit: null, unit: "cm" })).toBeCloseTo(200);
    expect(toRealLength({ modelLength: 1, metersPerUnit: null, unit: "in" })).toBeCloseTo(39.3701, 3);
  });

  it("sets the scale from one known length and reads other lengths through it", () => {
    // The model's 0.5-unit edge is really 30 cm long: one model unit is 0.6 m.
    const scale = metersPerUnitFromKnownLength({ modelLength: 0.5, realLength: 30, unit: "cm" });
    expect(scale).toBeCloseTo(0.6);
    expect(toRealLength({ modelLength: 0.5, metersPerUnit: scale, unit: "cm" })).toBeCloseTo(30);
    expect(toRealLength({ modelLength: 2, metersPerUnit: scale, unit: "ft" })).toBeCloseTo(1.2 / 0.3048);
  });

  it("refuses a scale from a zero, negative or non-finite measurement", () => {
    expect(metersPerUnitFromKnownLength({ modelLength: 0, realLength: 1, unit: "m" })).toBeNull();
    expect(metersPerUnitFromKnownLength({ modelLength: 1, realLength: -2, unit: "m" })).toBeNull();
    expect(metersPerUnitFromKnownLength({ modelLength: Number.NaN, realLength: 1, unit: "m" })).toBeNull();
    expect(metersPerUnitFromKnownLength({ modelLength: 1, realLength: Number.POSITIVE_INFINITY, unit: "m" })).toBeNull();
  });

  it("formats lengths with three significant figures", () => {
    expect(formatLength(1.2549, "m")).toBe("1.25 m");
    expect(formatLength(38.14, "cm")).toBe("38.1 cm");
    expect(formatLength(412.4, "mm")).toBe("412 mm");
    expect(formatLength(0.004012, "m")).toBe("0.00401 m");
    expect(formatLength(1234.5, "mm")).toBe("1235 mm");
  });
});
