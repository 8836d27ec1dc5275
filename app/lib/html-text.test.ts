import { describe, expect, it } from "vitest";
import { htmlToPlainText } from "./html-text";

describe("htmlToPlainText", () => {
  it("keeps the words, drops the tags and decodes the common entities", () => {
    expect(htmlToPlainText('<strong>New:</strong> 3D&nbsp;scans<br>for <a href="/pricing">Pro &amp; Growth</a>')).toBe("New: 3D scans for Pro & Growth");
  });

  it("shortens long text with an ellipsis", () => {
    expect(htmlToPlainText("a".repeat(100), 10)).toBe(`${"a".repeat(9)}…`);
  });
});
