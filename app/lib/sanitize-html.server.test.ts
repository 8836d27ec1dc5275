import { describe, expect, it } from "vitest";
import { sanitizeAnnouncementHtml } from "./sanitize-html.server";

describe("sanitizeAnnouncementHtml", () => {
  it("keeps allow-listed formatting and safe links", () => {
    const html = '<strong>New:</strong> <a href="https://example.com/x" target="_blank">read</a> <a href="/pricing">plans</a>';
    expect(sanitizeAnnouncementHtml(html)).toBe(
      '<strong>New:</strong> <a href="https://example.com/x" target="_blank" rel="noopener noreferrer">read</a> <a href="/pricing">plans</a>',
    );
  });

  it("removes scripts, event handlers and styles", () => {
    const out = sanitizeAnnouncementHtml('<p onclick="alert(1)" style="color:red">hi<script>alert(2)</script><img src=x onerror="alert(3)"></p>');
    expect(out).toBe("<p>hi</p>");
  });

  it("drops javascript:, data: and protocol-relative links but keeps the text", () => {
    for (const href of ["javascript:alert(1)", " JaVaScRiPt:alert(1)", "data:text/html,<b>x</b>", "//evil.example", "/\\evil.example", "vbscript:x"]) {
      const out = sanitizeAnnouncementHtml(`<a href="${href}">go</a>`);
      expect(out, href).toBe("<a>go</a>");
    }
  });

  it("unwraps unknown elements such as iframes, forms and svg", () => {
    expect(sanitizeAnnouncementHtml('<iframe src="https://x"></iframe><form action="/x"><input></form><svg onload="x()"><text>t</text></svg>ok')).toBe("ok");
  });
});
