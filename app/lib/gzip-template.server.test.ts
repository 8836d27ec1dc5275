import { randomBytes } from "node:crypto";
import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { fillGzipTemplate, gzipTemplate } from "./gzip-template.server";

const NONCE = "AAAAAAAAAAAAAAAAAAAAAA==";
const fresh = () => randomBytes(16).toString("base64");

describe("gzip templates", () => {
  it("give each copy the text with its own value, decoded by a standard gunzip", () => {
    const page = `<html><script nonce="${NONCE}">go()</script>${"<p>¡Hola, 3D! ✓</p>".repeat(2000)}<script nonce="${NONCE}"></script></html>`;
    const template = gzipTemplate(page, NONCE);
    for (let i = 0; i < 3; i++) {
      const value = fresh();
      const copy = fillGzipTemplate(template, value);
      expect(gunzipSync(copy).toString()).toBe(page.replaceAll(NONCE, value));
    }
  });

  it("hold the placeholder at either end, twice in a row, or not at all", () => {
    for (const text of [`${NONCE}middle${NONCE}`, `${NONCE}${NONCE}`, NONCE, "", "no placeholder here", `x${NONCE}`]) {
      const value = fresh();
      expect(gunzipSync(fillGzipTemplate(gzipTemplate(text, NONCE), value)).toString(), JSON.stringify(text)).toBe(text.replaceAll(NONCE, value));
    }
  });

  it("compress as well as gzip does, but for the stored values", () => {
    const page = `<html><script nonce="${NONCE}">go()</script>${"<div class=\"card\">a model</div>".repeat(3000)}<script nonce="${NONCE}"></script></html>`;
    const copy = fillGzipTemplate(gzipTemplate(page, NONCE), fresh());
    const whole = gzipSync(page).length;
    // Bound: gzip's size plus the two stored values (24 bytes and a 5-byte header each) and each part's flush (≤ 10 bytes).
    process.stdout.write(`template copy ${copy.length} bytes, gzip of the whole page ${whole} bytes, the page ${page.length} bytes\n`);
    expect(copy.length).toBeLessThanOrEqual(whole + 2 * 29 + 3 * 10);
  });

  it("without a placeholder, make every copy the text itself", () => {
    const text = '{"type":"rich","html":"<iframe></iframe>"}';
    expect(gunzipSync(fillGzipTemplate(gzipTemplate(text, null), null)).toString()).toBe(text);
  });

  it("refuse a value of another length", () => {
    expect(() => fillGzipTemplate(gzipTemplate(`a${NONCE}b`, NONCE), "short")).toThrow(RangeError);
  });
});
