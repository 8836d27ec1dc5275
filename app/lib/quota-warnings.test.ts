import { describe, expect, it } from "vitest";
import { scanQuotaWarning } from "./quota-warnings";
import { MESSAGES } from "./upload-rules";

describe("scanQuotaWarning", () => {
  it("stays quiet below 80 % of the plan's scans, and for unlimited or empty plans", () => {
    expect(scanQuotaWarning({ quota: 10, periodLeft: 3, topupLeft: 0 })).toBeNull(); // 70 %
    expect(scanQuotaWarning({ quota: 3, periodLeft: 1, topupLeft: 0 })).toBeNull(); // 67 %
    expect(scanQuotaWarning({ quota: -1, periodLeft: 0, topupLeft: 0 })).toBeNull();
    expect(scanQuotaWarning({ quota: 0, periodLeft: 0, topupLeft: 0 })).toBeNull();
  });

  it("warns at 80 %, counting top-ups that remain", () => {
    expect(scanQuotaWarning({ quota: 10, periodLeft: 2, topupLeft: 0 })).toEqual({
      level: 80,
      title: "You have used 8 of your 10 scans this billing period",
      body: "2 scans left this period. Top up or upgrade your plan for more.",
    });
    expect(scanQuotaWarning({ quota: 40, periodLeft: 1, topupLeft: 5 })?.body).toBe("1 scan left this period, plus 5 scans from top-ups. Top up or upgrade your plan for more.");
    // Rounding never warns early: 79 of 100 is below, 80 of 100 is the threshold.
    expect(scanQuotaWarning({ quota: 100, periodLeft: 21, topupLeft: 0 })).toBeNull();
    expect(scanQuotaWarning({ quota: 100, periodLeft: 20, topupLeft: 0 })?.level).toBe(80);
  });

  it("at 100 % says SPEC's words when nothing remains, and that top-ups come next when some do", () => {
    expect(scanQuotaWarning({ quota: 3, periodLeft: 0, topupLeft: 0 })).toEqual({
      level: 100,
      title: "You have used all 3 scans of this billing period",
      body: MESSAGES.noScanCredits,
    });
    expect(scanQuotaWarning({ quota: 1, periodLeft: 0, topupLeft: 1 })).toEqual({
      level: 100,
      title: "You have used all 1 scan of this billing period",
      body: "Your 1 scan from top-ups is used next; your monthly scans renew with the next period.",
    });
  });

  it("reads an allowance above the quota (an admin's extra credits) as nothing used", () => {
    expect(scanQuotaWarning({ quota: 3, periodLeft: 5, topupLeft: 0 })).toBeNull();
  });
});
