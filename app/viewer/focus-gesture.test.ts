import { describe, expect, it } from "vitest";
import { isDoubleTap } from "./focus-gesture";

describe("isDoubleTap", () => {
  const tap = (x: number, down: number, up = down + 80) => ({ x, y: 100, down, up });
  it("pairs two short taps close in time and place", () => {
    expect(isDoubleTap(tap(100, 0), tap(105, 250))).toBe(true);
  });
  it("refuses slow, far apart or long-pressed taps", () => {
    expect(isDoubleTap(null, tap(100, 0))).toBe(false);
    expect(isDoubleTap(tap(100, 0), tap(100, 600))).toBe(false);
    expect(isDoubleTap(tap(100, 0), tap(160, 200))).toBe(false);
    expect(isDoubleTap(tap(100, 0, 700), tap(100, 800))).toBe(false);
  });
});
