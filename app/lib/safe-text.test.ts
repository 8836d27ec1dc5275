import { describe, expect, it } from "vitest";
import { findUnsafeText, isSafeText } from "./safe-text";

describe("safe text", () => {
  it("accepts ordinary text, emoji (paired surrogates) and accents", () => {
    expect(isSafeText("Café 🐱 ok")).toBe(true);
    expect(findUnsafeText({ name: "a", tags: ["🐱"], n: 1 })).toBeNull();
  });
  it("refuses a NUL and lone surrogates, naming where", () => {
    expect(isSafeText("a\u0000b")).toBe(false);
    expect(isSafeText("ok\ud800")).toBe(false);
    expect(isSafeText("\udc00x")).toBe(false);
    expect(findUnsafeText({ name: "a\u0000" })).toBe("name");
    expect(findUnsafeText({ items: [{ title: "x" }, { title: "ok\ud800" }] })).toBe("items[1].title");
    expect(findUnsafeText({ ["k\u0000"]: 1 })).toBe("k\u0000");
  });
});
