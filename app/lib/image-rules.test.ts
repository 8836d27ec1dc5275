import { describe, expect, it } from "vitest";
import { checkImageFile, detectImageType, IMAGE_MAX_BYTES } from "./image-rules";

const bytes = (...values: Array<number | string>) =>
  Uint8Array.from(values.flatMap((v) => (typeof v === "string" ? [...v].map((c) => c.charCodeAt(0)) : [v])));

describe("detectImageType", () => {
  it("recognises the four allowed types by magic bytes", () => {
    expect(detectImageType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe("image/jpeg");
    expect(detectImageType(bytes(0x89, "PNG", 0x0d, 0x0a, 0x1a, 0x0a))).toBe("image/png");
    expect(detectImageType(bytes("GIF89a"))).toBe("image/gif");
    expect(detectImageType(bytes("RIFF", 0, 0, 0, 0, "WEBP"))).toBe("image/webp");
  });
  it("refuses anything else", () => {
    expect(detectImageType(bytes("<svg xmlns"))).toBeNull();
    expect(detectImageType(bytes("BM"))).toBeNull();
    expect(detectImageType(new Uint8Array())).toBeNull();
  });
});

describe("checkImageFile", () => {
  it("applies SPEC's 2 MB and type limits", () => {
    expect(checkImageFile({ size: IMAGE_MAX_BYTES, type: "image/png" })).toBeNull();
    expect(checkImageFile({ size: IMAGE_MAX_BYTES + 1, type: "image/png" })).toBe("The image is larger than 2 MB.");
    expect(checkImageFile({ size: 10, type: "image/svg+xml" })).toBe("Choose a JPEG, PNG, WebP or GIF image.");
  });
});
