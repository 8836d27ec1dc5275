import { describe, expect, it } from "vitest";
import { matchPairs } from "./match-pairs";
import { imageSize } from "./image-size";
import { overallProgress, progressDetail } from "./stage";

describe("overall progress and the owner's status line", () => {
  it("adds the finished stages' weights to the running stage's share", () => {
    expect(overallProgress("ingest", 0)).toBe(0);
    expect(overallProgress("publish", 1)).toBe(1);
    const before = overallProgress("matching", 0);
    const half = overallProgress("matching", 0.5);
    const done = overallProgress("mapping", 0);
    expect(half).toBeCloseTo((before + done) / 2, 10);
  });

  it("names the stage and percentage, with an estimate once there is enough to go on", () => {
    expect(progressDetail("features", 0.02, 5_000)).toBe("Finding features — 2%");
    expect(progressDetail("matching", 0.5, 4 * 60_000)).toBe("Matching images — 50% · about 4 min left");
    expect(progressDetail("export", 0.98, 100_000)).toBe("Exporting — 98% · about a minute left");
  });
});

describe("pairs for large photo sets", () => {
  it("matches neighbours in capture order and every photo with spread keyframes, without duplicates", () => {
    const names = Array.from({ length: 100 }, (_, i) => `image-${String(i + 1).padStart(3, "0")}.jpg`);
    const pairs = matchPairs(names, { window: 5, keyframes: 10 });
    const ids = new Set(pairs.map(([a, b]) => `${a}|${b}`));
    expect(ids.size).toBe(pairs.length);
    expect(ids.has("image-002.jpg|image-007.jpg")).toBe(true);
    expect(ids.has("image-002.jpg|image-009.jpg")).toBe(false);
    // image-091 (a keyframe) is matched with image-002: the loop closes.
    expect(ids.has("image-002.jpg|image-091.jpg")).toBe(true);
    expect(pairs.length).toBeLessThan((100 * 99) / 2 / 3);
  });
});

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
