import { describe, expect, it } from "vitest";
import { addMonths, periodContaining } from "./calendar-months";

const day = (iso: string) => new Date(`${iso}T10:00:00Z`);

describe("billing periods in calendar months", () => {
  it("adds months clamped to the month's last day, and goes back as well", () => {
    expect(addMonths(day("2026-01-31"), 1)).toEqual(day("2026-02-28"));
    expect(addMonths(day("2028-01-31"), 1)).toEqual(day("2028-02-29"));
    expect(addMonths(day("2026-03-15"), -1)).toEqual(day("2026-02-15"));
    expect(addMonths(day("2026-11-30"), 2)).toEqual(day("2027-01-30"));
  });

  it("finds the period that holds a moment, counted from the subscription's anchor", () => {
    expect(periodContaining(day("2026-01-31"), day("2026-04-01"))).toEqual({ start: day("2026-03-31"), end: day("2026-04-30") });
    expect(periodContaining(day("2026-01-31"), day("2026-03-30"))).toEqual({ start: day("2026-02-28"), end: day("2026-03-31") });
    expect(periodContaining(day("2026-01-31"), day("2026-03-01"))).toEqual({ start: day("2026-02-28"), end: day("2026-03-31") });
    expect(periodContaining(day("2026-05-10"), day("2026-05-10"))).toEqual({ start: day("2026-05-10"), end: day("2026-06-10") });
  });
});
