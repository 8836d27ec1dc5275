import { describe, expect, it } from "vitest";
import { quotaLines, remainingOfQuota } from "./quota-display";

const base = {
  link_quota: 3,
  link_credit: 2,
  scan_quota: 3,
  scan_credit: 1,
  topup_scan_credit: 0,
  total_scan_credit: 1,
  annotation_quota: 5,
  embed_quota: 1,
  embed_credit: 1,
};

describe("quota display (SPEC §9)", () => {
  it("shows remaining/quota, top-ups, annotations per model", () => {
    expect(quotaLines(base).map((l) => `${l.label}: ${l.value}`)).toEqual(["Scans: 1/3", "Annotations: 5 per model", "Links: 2/3", "Embeds: 1/1"]);
    expect(quotaLines({ ...base, topup_scan_credit: 5, total_scan_credit: 6 })[0].value).toBe("1/3 (+5)");
  });
  it("shows unlimited for -1 and never a negative remainder", () => {
    expect(remainingOfQuota(0, -1)).toBe("Unlimited");
    expect(remainingOfQuota(-2, 3)).toBe("0/3");
  });
});
