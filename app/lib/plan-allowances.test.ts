import { describe, expect, it } from "vitest";
import { isDowngrade, planAllowanceLines, planChangeNotice, type PlanLimits } from "./plan-allowances";

const free: PlanLimits = { name: "Free", scan_quota: 3, link_quota: 3, annotation_quota: 5, embed_quota: 1, watermark_removal: false };
const starter: PlanLimits = { name: "Starter", scan_quota: 10, link_quota: 25, annotation_quota: 20, embed_quota: 10, watermark_removal: false };
const growth: PlanLimits = { name: "Growth", scan_quota: 40, link_quota: 100, annotation_quota: 50, embed_quota: 50, watermark_removal: true };
const pro: PlanLimits = { name: "Pro", scan_quota: -1, link_quota: 500, annotation_quota: -1, embed_quota: 1, watermark_removal: true };

describe("plan allowances", () => {
  it("lists what a plan allows, with unlimited for -1 and singular for 1", () => {
    expect(planAllowanceLines(free)).toEqual(["3 scans a month", "3 links", "5 annotations per model", "1 embed", "Scanroom watermark on embeds"]);
    expect(planAllowanceLines(pro)).toEqual(["Unlimited scans", "500 links", "Unlimited annotations", "1 embed", "Remove the watermark from embeds"]);
  });

  it("orders plans by scans (unlimited highest), then links, and losing watermark removal is a downgrade", () => {
    expect(isDowngrade(growth, starter)).toBe(true);
    expect(isDowngrade(pro, growth)).toBe(true);
    expect(isDowngrade(free, starter)).toBe(false);
    expect(isDowngrade(starter, pro)).toBe(false);
    expect(isDowngrade({ ...growth, name: "Growth+" }, { ...growth, watermark_removal: false })).toBe(true);
  });

  it("tells an upgraded user what the plan includes", () => {
    expect(planChangeNotice({ from: free, to: growth, cause: "subscribed" })).toEqual({
      title: "Your plan is now Growth",
      body: "Growth includes: 40 scans a month; 100 links; 50 annotations per model; 50 embeds; Remove the watermark from embeds.",
    });
  });

  it("tells a downgraded or lapsed user why, what the plan allows, and that nothing was deleted", () => {
    const lapsed = planChangeNotice({ from: starter, to: free, cause: "renewal_failed" });
    expect(lapsed.title).toBe("Your plan is now Free");
    expect(lapsed.body).toMatch(/^The payment for your Starter plan did not go through, so the Free plan applies until it does\. Free includes: 3 scans a month; /);
    expect(lapsed.body).toContain("Nothing you made is deleted: every model stays viewable");
    expect(planChangeNotice({ from: growth, to: free, cause: "ended" }).body).toMatch(/^Your Growth plan has ended\. Free includes: .* Nothing you made is deleted/);
  });
});
