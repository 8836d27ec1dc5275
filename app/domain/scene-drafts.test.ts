import { describe, expect, it } from "vitest";
import { listedStatusWhere } from "./scene-drafts";

describe("listedStatusWhere (draft scenes, decision 046)", () => {
  it("keeps drafts off the owner's own list (the dashboard) unless asked for", () => {
    expect(listedStatusWhere({ status: undefined, own: true })).toEqual({ not: "draft" });
    expect(listedStatusWhere({ status: "draft", own: true })).toBe("draft");
    expect(listedStatusWhere({ status: "processing", own: true })).toBe("processing");
  });

  it("shows others ready items only, and never anyone's drafts", () => {
    expect(listedStatusWhere({ status: undefined, own: false })).toBe("ready");
    expect(listedStatusWhere({ status: "draft", own: false })).toBeNull();
    expect(listedStatusWhere({ status: "failed", own: false })).toBe("failed");
  });
});
