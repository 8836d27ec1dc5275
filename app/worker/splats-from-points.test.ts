import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { ColmapPoints } from "./colmap-model";
import { SH_C0 } from "~/formats/gaussian";
import { parsePlyHeader } from "~/formats/ply";
import { encodeSplatPly, SPLAT_PROPERTIES, validateSplatPly } from "~/formats/splat-ply";
import { colorToShDc, denseSplatsFromPoints, logit, previewSplatsFromPoints } from "./splats-from-points";
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

describe("the dense splat", () => {
  // A 10×10 grid, 2 cm apart, in the plane through the origin whose normal is n (tilted).
  const n = [0.6, 0, 0.8];
  const u = [0, 1, 0];
  const v = [n[1] * u[2] - n[2] * u[1], n[2] * u[0] - n[0] * u[2], n[0] * u[1] - n[1] * u[0]];
  const spacing = 0.02;
  const positions: number[] = [];
  const normals: number[] = [];
  const colors: number[] = [];
  for (let a = 0; a < 10; a++)
    for (let b = 0; b < 10; b++) {
      for (let c = 0; c < 3; c++) positions.push(a * spacing * u[c] + b * spacing * v[c]);
      normals.push(...n);
      colors.push(200, 100, 50);
    }
  const splats = denseSplatsFromPoints(positions, normals, colors, { scaleFactor: 0.7, flatness: 0.1, opacity: 0.8 });
  const width = SPLAT_PROPERTIES.length;

  it("turns each gaussian's thin axis onto the point's normal", () => {
    expect(splats.count).toBe(100);
    let worst = 0;
    for (let i = 0; i < splats.count; i++) {
      const [w, x, y, z] = splats.data.subarray(i * width + 7, i * width + 11);
      // Third column of the rotation matrix: where the local z axis goes.
      const axis = [2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)];
      worst = Math.max(worst, Math.hypot(axis[0] - n[0], axis[1] - n[1], axis[2] - n[2]));
    }
    console.warn(`dense splat: worst |R·z − n| = ${worst.toExponential(2)} (bound 1e-6)`);
    expect(worst).toBeLessThan(1e-6);
  });

  it("sizes gaussians by the point spacing, flat along the normal, coloured and opaque as asked", () => {
    const centre = (4 * 10 + 4) * width; // an interior point: its 3 nearest neighbours are 2 cm away
    const inPlane = Math.exp(splats.data[centre + 11]);
    console.warn(`dense splat: interior in-plane scale ${inPlane.toFixed(5)} (expected ${(0.7 * spacing).toFixed(5)})`);
    expect(inPlane).toBeCloseTo(0.7 * spacing, 5);
    expect(Math.exp(splats.data[centre + 12])).toBeCloseTo(0.7 * spacing, 5);
    expect(Math.exp(splats.data[centre + 13])).toBeCloseTo(0.07 * spacing, 6);
    expect(splats.data[centre + 3]).toBeCloseTo(colorToShDc(200), 5);
    expect(1 / (1 + Math.exp(-splats.data[centre + 6]))).toBeCloseTo(0.8, 5);
    expect(validateSplatPly(encodeSplatPly(splats)).count).toBe(100);
  });
});
