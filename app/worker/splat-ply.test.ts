import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { ColmapPoints } from "./colmap-model";
import { colorToShDc, encodeSplatPly, logit, parsePlyHeader, previewSplatsFromPoints, SH_C0, SPLAT_PROPERTIES, validateSplatPly } from "./splat-ply";
import { SHARED_DATA } from "../../tests/setup/shared-data";

function points(list: Array<{ p: [number, number, number]; c: [number, number, number]; error?: number }>): ColmapPoints {
  return {
    count: list.length,
    positions: Float64Array.from(list.flatMap((x) => x.p)),
    colors: Uint8Array.from(list.flatMap((x) => x.c)),
    errors: Float64Array.from(list.map((x) => x.error ?? 0.5)),
    trackLengths: Uint32Array.from(list.map(() => 2)),
    tracks: list.map(() => Uint32Array.from([1, 2])),
  };
}

describe("the preview splat", () => {
  const grid = points(
    Array.from({ length: 27 }, (_, i) => ({ p: [i % 3, Math.floor(i / 3) % 3, Math.floor(i / 9)] as [number, number, number], c: [255, 128, 0] as [number, number, number] })),
  );

  it("turns each reliable point into an isotropic gaussian: SH DC colour, log scale from neighbours, logit opacity, identity rotation", () => {
    const splats = previewSplatsFromPoints(grid, { scaleFactor: 1, opacity: 0.9 });
    expect(splats.count).toBe(27);
    const w = SPLAT_PROPERTIES.length;
    const first = Array.from(splats.data.subarray(0, w));
    const at = (name: (typeof SPLAT_PROPERTIES)[number]) => first[SPLAT_PROPERTIES.indexOf(name)];
    expect([at("x"), at("y"), at("z")]).toEqual([0, 0, 0]);
    expect(0.5 + SH_C0 * at("f_dc_0")).toBeCloseTo(1, 5);
    expect(0.5 + SH_C0 * at("f_dc_1")).toBeCloseTo(128 / 255, 5);
    expect(at("opacity")).toBeCloseTo(logit(0.9), 5);
    expect([at("rot_0"), at("rot_1"), at("rot_2"), at("rot_3")]).toEqual([1, 0, 0, 0]);
    // A grid corner's 3 nearest neighbours are all 1 away: RMS distance 1 → log scale 0.
    expect(at("scale_0")).toBeCloseTo(0, 5);
    expect(at("scale_1")).toBe(at("scale_0"));
    expect(colorToShDc(127.5)).toBeCloseTo(0, 10);
  });

  it("leaves out points with a large reprojection error", () => {
    const noisy = points([
      { p: [0, 0, 0], c: [1, 2, 3] },
      { p: [1, 0, 0], c: [1, 2, 3], error: 5 },
      { p: [0, 1, 0], c: [1, 2, 3] },
    ]);
    expect(previewSplatsFromPoints(noisy).count).toBe(2);
  });

  it("writes a binary 3DGS .ply that reads back with the same count and values", () => {
    const splats = previewSplatsFromPoints(grid);
    const bytes = encodeSplatPly(splats);
    const header = parsePlyHeader(bytes);
    expect(header.format).toBe("binary_little_endian");
    expect(header.elements[0]).toMatchObject({ name: "vertex", count: 27 });
    expect(header.elements[0].properties.map((p) => p.name)).toEqual([...SPLAT_PROPERTIES]);
    expect(validateSplatPly(bytes).count).toBe(27);
    const body = new Float32Array(bytes.buffer.slice(bytes.byteOffset + header.bodyOffset, bytes.byteOffset + bytes.length));
    expect(Array.from(body)).toEqual(Array.from(splats.data));
  });

  it("accepts a real trained scene and rejects truncated, NaN or incomplete files", () => {
    const guitar = readFileSync(path.join(SHARED_DATA, "splats/guitar.ply"));
    expect(validateSplatPly(guitar).count).toBe(90854);
    const bytes = encodeSplatPly(previewSplatsFromPoints(grid));
    expect(() => validateSplatPly(bytes.subarray(0, bytes.length - 4))).toThrow(/bytes/);
    const nan = Buffer.from(bytes);
    nan.writeFloatLE(Number.NaN, parsePlyHeader(bytes).bodyOffset + 8);
    expect(() => validateSplatPly(nan)).toThrow(/non-finite/);
    const noOpacity = Buffer.from(bytes.toString("latin1").replace("property float opacity\n", "property float opacitx\n"), "latin1");
    expect(() => validateSplatPly(noOpacity)).toThrow(/opacity/);
    expect(() => validateSplatPly(Buffer.from("not a ply"))).toThrow(/ply header/);
  });
});
