import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inspectSogBundle } from "~/formats/sog-bundle.server";
import { listZipEntries } from "~/formats/zip";
import { coarseSplatTarget, DeliveryCopyError, deliveryInputName, makeDeliveryCopy, needsDeliveryCopy } from "./splat-delivery.server";
import { SHARED_DATA } from "../../tests/setup/shared-data";

const DATA = SHARED_DATA;
const work = mkdtempSync(path.join(os.tmpdir(), "splat-delivery-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("makeDeliveryCopy", () => {
  it("turns a 3DGS .ply into a much smaller, complete .sog bundle", { timeout: 90_000 }, async () => {
    const input = path.join(work, "guitar.ply");
    copyFileSync(path.join(DATA, "splats/guitar.ply"), input);
    const output = path.join(work, "guitar.sog");
    const copy = await makeDeliveryCopy({ inputPath: input, outputPath: output, expectedSplats: 90_854 });
    expect(copy.splats).toBe(90_854);
    expect(copy.coarse).toBeNull(); // none asked for
    const bundle = readFileSync(output);
    expect(copy.bytes).toBe(bundle.length);
    expect(bundle.length).toBeLessThan(readFileSync(input).length * 0.3);
    const summary = inspectSogBundle(bundle);
    expect(summary.files).toEqual(expect.arrayContaining(["means_l.webp", "means_u.webp", "quats.webp", "scales.webp", "sh0.webp"]));
    expect(listZipEntries(bundle).map((entry) => entry.name)).toContain("meta.json");

    // A bundle that lost its tail (central directory) is refused.
    expect(() => inspectSogBundle(bundle.subarray(0, bundle.length - 200))).toThrow(/zip/);
  });

  it("writes a coarse copy of a large splat beside it: a tenth of the splats, no spherical harmonics", { timeout: 90_000 }, async () => {
    const input = path.join(work, "guitar-coarse.ply");
    copyFileSync(path.join(DATA, "splats/guitar.ply"), input);
    const coarseOutput = path.join(work, "guitar.coarse.sog");
    const copy = await makeDeliveryCopy({ inputPath: input, outputPath: path.join(work, "guitar-full.sog"), coarseOutputPath: coarseOutput });
    expect(copy.splats).toBe(90_854);
    const coarse = readFileSync(coarseOutput);
    expect(copy.coarse).toEqual({ bytes: coarse.length, splats: 9_086, ms: expect.any(Number) });
    expect(inspectSogBundle(coarse).splats).toBe(9_086);
    expect(coarse.length).toBeLessThan(copy.bytes / 5);
    expect(inspectSogBundle(coarse).files).not.toContain("shN_centroids.webp");
    await expect(makeDeliveryCopy({ inputPath: input, outputPath: path.join(work, "x.sog"), coarseOutputPath: path.join(work, "x.spz") })).rejects.toThrow(
      /coarse copy's path must end in \.sog/,
    );
  });

  it("still makes the delivery copy when the coarse copy fails, and makes none of a small splat", { timeout: 90_000 }, async () => {
    const ply = readFileSync(path.join(DATA, "splats/guitar.ply"));
    const small = path.join(work, "small.ply");
    writeFileSync(small, firstSplats(ply, 30_000));
    const smallCopy = await makeDeliveryCopy({ inputPath: small, outputPath: path.join(work, "small.sog"), coarseOutputPath: path.join(work, "small.coarse.sog") });
    expect(smallCopy).toMatchObject({ splats: 30_000, coarse: null });
    expect(existsSync(path.join(work, "small.coarse.sog"))).toBe(false);

    // The coarse copy cannot be written (a folder has its name): the delivery copy stands without one.
    const input = path.join(work, "guitar-nocoarse.ply");
    copyFileSync(path.join(DATA, "splats/guitar.ply"), input);
    const blocked = path.join(work, "blocked.coarse.sog");
    mkdirSync(blocked);
    const copy = await makeDeliveryCopy({ inputPath: input, outputPath: path.join(work, "nocoarse.sog"), coarseOutputPath: blocked });
    expect(copy).toMatchObject({ splats: 90_854, coarse: null });
  });

  it("refuses a truncated or bogus input with a readable reason", { timeout: 60_000 }, async () => {
    const ply = readFileSync(path.join(DATA, "splats/guitar.ply"));
    const truncated = path.join(work, "truncated.ply");
    writeFileSync(truncated, ply.subarray(0, truncatedLength(ply)));
    await expect(makeDeliveryCopy({ inputPath: truncated, outputPath: path.join(work, "t.sog") })).rejects.toThrow(
      `truncated.ply is truncated: ${truncatedLength(ply)} of ${ply.length} bytes`,
    );
    const ksplat = readFileSync(path.join(DATA, "splats/guitar.ksplat"));
    const cutKsplat = path.join(work, "cut.ksplat");
    writeFileSync(cutKsplat, ksplat.subarray(0, Math.floor(ksplat.length * 0.6)));
    await expect(makeDeliveryCopy({ inputPath: cutKsplat, outputPath: path.join(work, "k.sog") })).rejects.toThrow(/cut\.ksplat is truncated/);
    const spz = readFileSync(path.join(DATA, "splats/biker.spz"));
    const cutSpz = path.join(work, "cut.spz");
    writeFileSync(cutSpz, spz.subarray(0, spz.length / 2));
    await expect(makeDeliveryCopy({ inputPath: cutSpz, outputPath: path.join(work, "s.sog") })).rejects.toThrow(/splat-transform could not convert cut\.spz/);
    const bogus = path.join(work, "bogus.ply");
    writeFileSync(bogus, "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nend_header\nnot numbers\n");
    await expect(makeDeliveryCopy({ inputPath: bogus, outputPath: path.join(work, "b.sog") })).rejects.toThrow(DeliveryCopyError);
    await expect(makeDeliveryCopy({ inputPath: bogus, outputPath: path.join(work, "b.spz") })).rejects.toThrow(/must end in \.sog/);
  });
});

function truncatedLength(bytes: Buffer) {
  return Math.floor(bytes.length / 3);
}

/** The first `count` splats of a binary 3DGS .ply (header rewritten). */
function firstSplats(ply: Buffer, count: number): Buffer {
  const end = ply.indexOf("end_header\n") + "end_header\n".length;
  const header = ply.subarray(0, end).toString("latin1");
  const properties = (header.match(/^property /gm) ?? []).length;
  return Buffer.concat([Buffer.from(header.replace(/element vertex \d+/, `element vertex ${count}`), "latin1"), ply.subarray(end, end + count * properties * 4)]);
}

describe("coarseSplatTarget", () => {
  it("makes no coarse copy below 40,000 splats, else keeps a tenth (rounded up) and at most 20,000", () => {
    for (const splats of [0, 1, 30_000, 39_999, Number.NaN]) expect(coarseSplatTarget(splats)).toBeNull();
    expect(coarseSplatTarget(40_000)).toBe(4_000);
    expect(coarseSplatTarget(90_854)).toBe(9_086);
    expect(coarseSplatTarget(152_746)).toBe(15_275);
    expect(coarseSplatTarget(200_000)).toBe(20_000);
    expect(coarseSplatTarget(5_000_000)).toBe(20_000);
  });
});

describe("which files get a delivery copy", () => {
  it("covers every splat container except .sog, and names inputs the way the converter reads them", () => {
    for (const format of ["ply", "compressed-ply", "ksplat", "spz", "splat"]) expect(needsDeliveryCopy(format)).toBe(true);
    for (const format of ["sog", "glb", "gltf", null]) expect(needsDeliveryCopy(format)).toBe(false);
    expect(deliveryInputName("compressed-ply")).toBe("input.compressed.ply");
    expect(deliveryInputName("spz", "biker")).toBe("biker.spz");
    expect(() => deliveryInputName("glb")).toThrow();
  });
});
