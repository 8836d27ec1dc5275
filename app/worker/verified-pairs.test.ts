import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { readSqliteTable } from "~/formats/sqlite";
import { readVerifiedPairs } from "./verified-pairs";

const dir = mkdtempSync(path.join(os.tmpdir(), "verified-pairs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Smooth random colour blobs: a small noise image scaled up (SIFT finds plenty, none shared between two of them). */
function blobs(width: number, height: number) {
  const small = { width: width / 16, height: height / 16, channels: 3 as const };
  return sharp(randomBytes(small.width * small.height * 3), { raw: small }).resize(width, height, { kernel: "cubic" });
}

const colmap = (args: string[]) => execFileSync("colmap", args, { encoding: "utf8" });

describe("readVerifiedPairs", () => {
  it("reads the pairs COLMAP verified, by image name, with their inlier counts, from a database whose rows spill onto overflow pages", async () => {
    mkdirSync(path.join(dir, "images"));
    // left.jpg and right.jpg are the two halves (with 320 px in common) of one picture; other.jpg shares nothing.
    const wide = await blobs(960, 480).png().toBuffer();
    await sharp(wide).extract({ left: 0, top: 0, width: 640, height: 480 }).jpeg({ quality: 95 }).toFile(path.join(dir, "images/left.jpg"));
    await sharp(wide).extract({ left: 320, top: 0, width: 640, height: 480 }).jpeg({ quality: 95 }).toFile(path.join(dir, "images/right.jpg"));
    await blobs(640, 480).jpeg({ quality: 95 }).toFile(path.join(dir, "images/other.jpg"));
    const database = path.join(dir, "pairs.db");
    colmap(["feature_extractor", "--database_path", database, "--image_path", path.join(dir, "images"), "--SiftExtraction.use_gpu", "0", "--SiftExtraction.num_threads", "1", "--SiftExtraction.max_num_features", "1024"]);
    colmap(["exhaustive_matcher", "--database_path", database, "--SiftMatching.use_gpu", "0", "--SiftMatching.num_threads", "1"]);

    // Every image's descriptors (128 bytes per feature, far more than a 4 KiB page) read whole.
    const descriptors = readSqliteTable(database, "descriptors");
    expect(descriptors).toHaveLength(3);
    for (const row of descriptors) {
      expect(Number(row.cols)).toBe(128);
      expect(Number(row.rows)).toBeGreaterThan(100);
      expect((row.data as Uint8Array).byteLength).toBe(Number(row.rows) * 128);
    }

    const pairs = readVerifiedPairs(database);
    process.stdout.write(`verified pairs: ${JSON.stringify(pairs)}\n`);
    expect(pairs).toEqual([{ a: expect.stringMatching(/^(left|right)\.jpg$/), b: expect.stringMatching(/^(left|right)\.jpg$/), inliers: expect.any(Number) }]);
    expect(pairs[0].a).not.toBe(pairs[0].b);
    expect(pairs[0].inliers).toBeGreaterThan(50);
  });
});
