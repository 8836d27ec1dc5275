import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { embedCode } from "./embed-code";

const item = { id: "7b0c3c1e-2f57-4a8a-9a43-5c1f0e2d9b11", name: 'Chair "Oak" <1>' };

describe("embedCode", () => {
  it("is a fixed 640 × 480 iframe by default, the name escaped", () => {
    const code = embedCode("https://scanroom.example", item);
    const frame = new JSDOM(code).window.document.querySelector("iframe")!;
    expect(frame.getAttribute("width")).toBe("640");
    expect(frame.getAttribute("height")).toBe("480");
    expect(frame.getAttribute("title")).toBe(item.name);
    expect(frame.getAttribute("src")).toBe(`https://scanroom.example/embed/${item.id}`);
  });

  it("responsive: a 4:3 box as wide as its container, the iframe filling it", () => {
    const code = embedCode("https://scanroom.example", item, { responsive: true, autorotate: true });
    const box = new JSDOM(code).window.document.body.firstElementChild as HTMLElement;
    expect(box.tagName).toBe("DIV");
    expect(box.style.width).toBe("100%");
    expect(box.getAttribute("style")).toContain("aspect-ratio:640/480");
    const frame = box.querySelector("iframe")!;
    expect(frame.hasAttribute("width")).toBe(false);
    expect(frame.style.width).toBe("100%");
    expect(frame.style.height).toBe("100%");
    expect(frame.getAttribute("src")).toBe(`https://scanroom.example/embed/${item.id}?autorotate=1`);
  });
});
