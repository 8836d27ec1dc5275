import { describe, expect, it } from "vitest";
import { SPLAT_PROPERTIES } from "~/formats/splat-ply";
import { readSplatCloud } from "./read-splats.server";

/** A binary 3DGS .ply of `count` splats with `rest` f_rest_* columns; f_rest_j of splat i holds i + j / 100. */
function plyWithHarmonics(count: number, rest: number): Uint8Array {
  const names = [...SPLAT_PROPERTIES, ...Array.from({ length: rest }, (_, j) => `f_rest_${j}`)];
  const header = `ply\nformat binary_little_endian 1.0\nelement vertex ${count}\n${names.map((n) => `property float ${n}\n`).join("")}end_header\n`;
  const body = new DataView(new ArrayBuffer(count * names.length * 4));
  for (let i = 0; i < count; i++) {
    names.forEach((name, p) => {
      const value = name.startsWith("f_rest_") ? i + Number(name.slice(7)) / 100 : name === "opacity" ? 4 : name === "rot_0" ? 1 : name.startsWith("rot_") ? 0 : name === "x" ? i : name.startsWith("scale_") ? -3 : 0;
      body.setFloat32((i * names.length + p) * 4, value, true);
    });
  }
  const bytes = new Uint8Array(header.length + body.byteLength);
  bytes.set(new TextEncoder().encode(header));
  bytes.set(new Uint8Array(body.buffer), header.length);
  return bytes;
}

describe("reading a splat's spherical harmonics", () => {
  it.each([
    { degree: 1, rest: 9 },
    { degree: 2, rest: 24 },
    { degree: 3, rest: 45 },
  ])("keeps degree $degree's $rest coefficients, channel c's coefficient k (f_rest_{c·n+k}) at (i·n + k)·3 + c", async ({ degree, rest }) => {
    const cloud = await readSplatCloud(plyWithHarmonics(3, rest), "ply");
    expect(cloud.harmonics?.degree).toBe(degree);
    const n = rest / 3;
    const { coefficients } = cloud.harmonics!;
    expect(coefficients.length).toBe(3 * n * 3);
    for (let i = 0; i < 3; i++) {
      for (let k = 0; k < n; k++) {
        for (let c = 0; c < 3; c++) expect(coefficients[(i * n + k) * 3 + c]).toBeCloseTo(i + (c * n + k) / 100, 5);
      }
    }
  });

  it("has none where the file holds base colours only", async () => {
    const cloud = await readSplatCloud(plyWithHarmonics(2, 0), "ply");
    expect(cloud.count).toBe(2);
    expect(cloud.harmonics).toBeUndefined();
  });
});
