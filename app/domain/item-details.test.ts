import { describe, expect, it } from "vitest";
import { LICENSE_INFO, LICENSES, MAX_TAGS, normalizeTag, parseTagList, tagListProblem } from "./item-details";
import { listItemsQuerySchema, tagsSchema, updateItemBodySchema } from "./schemas";

describe("tags", () => {
  it("are stored lowercase, without a leading #, with single spaces", () => {
    expect(normalizeTag("  #Red   Chair ")).toBe("red chair");
    expect(normalizeTag("Mid_Century")).toBe("mid century");
    expect(normalizeTag("Ölçü")).toBe("ölçü");
    expect(normalizeTag("##")).toBe("");
  });

  it("are read from a comma-separated line, empty ones and repeats dropped, order kept", () => {
    expect(parseTagList("chair, Oak,#oak, , wood ")).toEqual(["chair", "oak", "wood"]);
  });

  it("refuse punctuation, over-long tags and more than ten", () => {
    expect(tagListProblem(["chair!"])).toBe("“chair!” may hold only letters, digits, spaces and hyphens");
    expect(tagListProblem(["x".repeat(31)])).toMatch(/at most 30 characters/);
    expect(tagListProblem(Array.from({ length: MAX_TAGS + 1 }, (_, i) => `t${i}`))).toBe("must be at most 10");
    expect(tagListProblem(["3d scan", "mid-century", "木"])).toBeNull();
  });

  it("go through the API's schema normalized, or are refused with the reason", () => {
    expect(tagsSchema.parse(["Chair", "#chair", "Oak Wood"])).toEqual(["chair", "oak wood"]);
    const refused = updateItemBodySchema.safeParse({ tags: ["<b>x</b>"] });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0].message).toBe("“<b>x</b>” may hold only letters, digits, spaces and hyphens");
  });
});

describe("licences", () => {
  it("each has a label and a summary, and a link to its text except all rights reserved", () => {
    for (const license of LICENSES) {
      expect(LICENSE_INFO[license].label.length).toBeGreaterThan(0);
      expect(LICENSE_INFO[license].summary.length).toBeGreaterThan(0);
      expect(LICENSE_INFO[license].url === null).toBe(license === "all_rights_reserved");
    }
  });

  it("are one of the five, or the API says which are allowed", () => {
    expect(updateItemBodySchema.parse({ license: "cc0" })).toEqual({ license: "cc0" });
    const refused = updateItemBodySchema.safeParse({ license: "gpl" });
    expect(refused.error?.issues[0].message).toBe("must be one of all_rights_reserved, cc_by, cc_by_sa, cc_by_nc, cc0");
  });
});

describe("the downloadable filter", () => {
  it("reads true and false, and refuses anything else", () => {
    expect(listItemsQuerySchema.parse({ downloadable: "true" }).downloadable).toBe(true);
    expect(listItemsQuerySchema.parse({ downloadable: "false" }).downloadable).toBe(false);
    expect(listItemsQuerySchema.parse({}).downloadable).toBeUndefined();
    expect(listItemsQuerySchema.safeParse({ downloadable: "yes" }).success).toBe(false);
  });
});
