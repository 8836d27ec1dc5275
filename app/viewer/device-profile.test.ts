import { describe, expect, it } from "vitest";
import { deviceProfile } from "./device-profile";

describe("deviceProfile", () => {
  it("caps phones harder than tablets and desktops", () => {
    const phone = deviceProfile({ coarsePointer: true, shortSide: 390 });
    const tablet = deviceProfile({ coarsePointer: true, shortSide: 820 });
    const desktop = deviceProfile({ coarsePointer: false, shortSide: 1080 });
    expect(phone).toEqual({ kind: "phone", maxPixelRatio: 1.5, splatBudget: 1_000_000 });
    expect(tablet.kind).toBe("tablet");
    expect(desktop.kind).toBe("desktop");
    expect(phone.splatBudget).toBeLessThan(tablet.splatBudget);
    expect(tablet.splatBudget).toBeLessThan(desktop.splatBudget);
    expect(phone.maxPixelRatio).toBeLessThan(desktop.maxPixelRatio);
  });

  it("halves the budget where the browser reports little memory", () => {
    expect(deviceProfile({ coarsePointer: true, shortSide: 360, memoryGb: 2 }).splatBudget).toBe(500_000);
    expect(deviceProfile({ coarsePointer: false, shortSide: 900, memoryGb: 1 }).splatBudget).toBe(1_500_000);
    expect(deviceProfile({ coarsePointer: false, shortSide: 900, memoryGb: 8 }).splatBudget).toBe(3_000_000);
  });
});
