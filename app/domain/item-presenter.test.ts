import { describe, expect, it } from "vitest";
import { modelDownloadNeedsToken } from "./item-presenter";

describe("modelDownloadNeedsToken", () => {
  it("lets public and unlisted models download without the owner's token", () => {
    expect(modelDownloadNeedsToken({ visibility: "public" })).toBe(false);
    expect(modelDownloadNeedsToken({ visibility: "unlisted" })).toBe(false);
  });

  it("asks for the token for a private model, an unknown visibility and the owner's original file", () => {
    expect(modelDownloadNeedsToken({ visibility: "private" })).toBe(true);
    expect(modelDownloadNeedsToken({ visibility: null })).toBe(true);
    expect(modelDownloadNeedsToken({})).toBe(true);
    expect(modelDownloadNeedsToken({ visibility: "public" }, { original: true })).toBe(true);
  });
});
