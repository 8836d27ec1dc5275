import { describe, expect, it } from "vitest";
import { detectImageFormat, detectVideoContainer } from "./media-format";

const bytes = (...parts: Array<string | number[]>) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p)));
const ftyp = (brand: string) => bytes([0, 0, 0, 0x18], "ftyp", brand, [0, 0, 0, 0], "isom");

describe("detectImageFormat", () => {
  it("knows JPEG, PNG, WebP, HEIC, TIFF and BMP by their first bytes", () => {
    expect(detectImageFormat(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe("jpeg");
    expect(detectImageFormat(bytes([0x89], "PNG", [0x0d, 0x0a, 0x1a, 0x0a]))).toBe("png");
    expect(detectImageFormat(bytes("RIFF", [1, 2, 3, 4], "WEBPVP8 "))).toBe("webp");
    expect(detectImageFormat(ftyp("heic"))).toBe("heic");
    expect(detectImageFormat(ftyp("mif1"))).toBe("heic");
    expect(detectImageFormat(bytes("II", [0x2a, 0]))).toBe("tiff");
    expect(detectImageFormat(bytes("BM", new Array(20).fill(0)))).toBe("bmp");
  });

  it("refuses text renamed .jpg, videos and empty files", () => {
    expect(detectImageFormat(bytes("hello, this is a text file"))).toBeNull();
    expect(detectImageFormat(ftyp("isom"))).toBeNull();
    expect(detectImageFormat(new Uint8Array())).toBeNull();
  });
});

describe("detectVideoContainer", () => {
  it("knows MP4/MOV, Matroska/WebM and AVI", () => {
    expect(detectVideoContainer(ftyp("isom"))).toBe("mov");
    expect(detectVideoContainer(ftyp("qt  "))).toBe("mov");
    expect(detectVideoContainer(bytes([0, 0, 0, 8], "wide"))).toBe("mov");
    expect(detectVideoContainer(bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f]))).toBe("matroska");
    expect(detectVideoContainer(bytes("RIFF", [0, 0, 0, 0], "AVI LIST"))).toBe("avi");
  });

  it("refuses HEIC stills, text and WebP", () => {
    expect(detectVideoContainer(ftyp("heic"))).toBeNull();
    expect(detectVideoContainer(bytes("#EXTM3U\n#EXT-X-VERSION:3"))).toBeNull();
    expect(detectVideoContainer(bytes("RIFF", [0, 0, 0, 0], "WEBPVP8 "))).toBeNull();
  });
});
