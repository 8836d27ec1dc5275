import { describe, expect, it } from "vitest";
import { sogBundleProblem } from "./sog-bundle.server";
import { sogLikeZip as zip } from "../../tests/setup/sog-like-zip";

const check = (bytes: Buffer) => sogBundleProblem(bytes.length, async (start, end) => bytes.subarray(start, end));

const images = { "means_l.webp": "x", "means_u.webp": "x", "scales.webp": "x", "quats.webp": "x", "sh0.webp": "x" };
const meta = {
  version: 2,
  count: 100,
  means: { mins: [0, 0, 0], maxs: [1, 1, 1], files: ["means_l.webp", "means_u.webp"] },
  scales: { codebook: [], files: ["scales.webp"] },
  quats: { files: ["quats.webp"] },
  sh0: { codebook: [], files: ["sh0.webp"] },
};

describe("sogBundleProblem", () => {
  it("accepts a bundle whose meta.json names the files it holds (stored and deflated)", async () => {
    expect(await check(zip({ ...images, "meta.json": JSON.stringify(meta) }))).toBeNull();
    expect(await check(zip({ ...images, "meta.json": JSON.stringify(meta) }, { deflate: true }))).toBeNull();
  });

  it("refuses a zip whose meta.json is HTML", async () => {
    expect(await check(zip({ "meta.json": "<!doctype html><html></html>" }, { deflate: true }))).toMatch(/not JSON/);
  });

  it("refuses a bundle without meta.json, with missing images, or with no splats", async () => {
    expect(await check(zip(images))).toMatch(/no meta.json/);
    const { "quats.webp": _omitted, ...withoutQuats } = images;
    expect(await check(zip({ ...withoutQuats, "meta.json": JSON.stringify(meta) }))).toMatch(/lacks quats.webp/);
    expect(await check(zip({ ...images, "meta.json": JSON.stringify({ ...meta, count: 0 }) }))).toMatch(/no splats/);
    expect(await check(zip({ ...images, "meta.json": "{}" }))).toMatch(/no means files/);
  });

  it("refuses bytes that only start like a zip", async () => {
    expect(await check(Buffer.concat([Buffer.from([0x50, 0x4b, 3, 4]), Buffer.alloc(100)]))).toMatch(/not a readable zip/);
  });
});
