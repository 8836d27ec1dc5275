import { describe, expect, it } from "vitest";
import { imageSize } from "./image-size";

describe("image helpers", () => {
  it("reads JPEG and PNG sizes from their headers", () => {
    const png = Buffer.alloc(24);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(png);
    png.writeUInt32BE(640, 16);
    png.writeUInt32BE(480, 20);
    expect(imageSize(png)).toEqual({ width: 640, height: 480 });
    // SOI, an APP0 segment of 16 bytes, then SOF0 with height 600 and width 800.
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, ...new Array(14).fill(0), 0xff, 0xc0, 0x00, 0x11, 0x08, 0x02, 0x58, 0x03, 0x20, 0x03]);
    expect(imageSize(jpeg)).toEqual({ width: 800, height: 600 });
    expect(imageSize(Buffer.from("GIF89a"))).toBeNull();
  });
});
