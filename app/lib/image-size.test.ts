import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { readImageSize } from "./image-size";

const u16be = (n: number) => [n >> 8, n & 0xff];
const u16le = (n: number) => [n & 0xff, n >> 8];
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

describe("readImageSize", () => {
  it("reads a PNG's IHDR", () => {
    const png = PNG.sync.write(new PNG({ width: 640, height: 360 }));
    expect(readImageSize(new Uint8Array(png))).toEqual({ width: 640, height: 360 });
  });

  it("reads a GIF's logical screen", () => {
    const gif = new Uint8Array([...ascii("GIF89a"), ...u16le(320), ...u16le(200), 0, 0, 0]);
    expect(readImageSize(gif)).toEqual({ width: 320, height: 200 });
  });

  it("reads a JPEG's frame header after an APP segment and fill bytes", () => {
    const app0 = [0xff, 0xe0, ...u16be(16), ...ascii("JFIF"), 0, 1, 1, 0, 0, 1, 0, 1, 0, 0];
    const sof2 = [0xff, 0xc2, ...u16be(17), 8, ...u16be(480), ...u16be(800), 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, ...app0, ...sof2]);
    expect(readImageSize(jpeg)).toEqual({ width: 800, height: 480 });
  });

  it("reads the three WebP flavours", () => {
    const riff = (chunk: string, body: number[]) => new Uint8Array([...ascii("RIFF"), 0, 0, 0, 0, ...ascii("WEBP"), ...ascii(chunk), 0, 0, 0, 0, ...body]);
    const lossy = riff("VP8 ", [0, 0, 0, 0x9d, 0x01, 0x2a, ...u16le(1024), ...u16le(768), 0, 0]);
    expect(readImageSize(lossy)).toEqual({ width: 1024, height: 768 });
    const bits = (99 & 0x3fff) | ((49 & 0x3fff) << 14);
    const lossless = riff("VP8L", [0x2f, bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, (bits >>> 24) & 0xff, 0, 0, 0, 0]);
    expect(readImageSize(lossless)).toEqual({ width: 100, height: 50 });
    const extended = riff("VP8X", [0, 0, 0, 0, 1999 & 0xff, (1999 >> 8) & 0xff, 0, 999 & 0xff, (999 >> 8) & 0xff, 0]);
    expect(readImageSize(extended)).toEqual({ width: 2000, height: 1000 });
  });

  it("answers null for other or truncated bytes", () => {
    expect(readImageSize(new TextEncoder().encode("not an image at all"))).toBeNull();
    expect(readImageSize(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16]))).toBeNull();
    expect(readImageSize(new Uint8Array(PNG.sync.write(new PNG({ width: 4, height: 4 })).subarray(0, 20)))).toBeNull();
  });
});
