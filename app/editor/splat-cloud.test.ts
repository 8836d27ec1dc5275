import { describe, expect, it } from "vitest";
import { encodeSplatPly, SPLAT_PROPERTIES, validateSplatPly } from "~/formats/splat-ply";
import { SH_C0 } from "../formats/gaussian";
import { decodeSplatCloud, encodeSplatCloud, SplatFileError } from "./splat-cloud";

const toArrayBuffer = (bytes: Uint8Array) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

/** n splats: splat i at (i, 2i, -i), colour f_dc (i·0.1), opacity logit 0, log scales −i, rotation (1, 0, 0, 0). */
function sample(n: number) {
  const width = SPLAT_PROPERTIES.length;
  const data = new Float32Array(n * width);
  for (let i = 0; i < n; i++) {
    const o = i * width;
    data.set([i, 2 * i, -i, i * 0.1, -i * 0.1, 0, 0, 1, 0, 0, 0, -i, -i, -i], o);
  }
  return toArrayBuffer(encodeSplatPly({ count: n, data }));
}

/** A .ply with extra properties (normals and one higher-order SH coefficient) after the standard ones. */
function withExtraProperties(n: number): ArrayBuffer {
  const names = [...SPLAT_PROPERTIES, "nx", "f_rest_0"];
  const header = `ply\nformat binary_little_endian 1.0\nelement vertex ${n}\n${names.map((p) => `property float ${p}\n`).join("")}end_header\n`;
  const body = new Float32Array(n * names.length);
  for (let i = 0; i < body.length; i++) body[i] = i * 0.5;
  return toArrayBuffer(Buffer.concat([Buffer.from(header, "latin1"), Buffer.from(body.buffer)]));
}

describe("decodeSplatCloud", () => {
  it("decodes centres, colours, opacity, scales and rotations", () => {
    const cloud = decodeSplatCloud(sample(3));
    expect(cloud.count).toBe(3);
    expect(Array.from(cloud.positions)).toEqual([0, 0, -0, 1, 2, -1, 2, 4, -2]);
    expect(cloud.colors[3]).toBeCloseTo(0.5 + SH_C0 * 0.1, 6);
    expect(cloud.colors[4]).toBeCloseTo(0.5 - SH_C0 * 0.1, 6);
    expect(Array.from(cloud.opacities)).toEqual([0.5, 0.5, 0.5]);
    expect(cloud.scales[6]).toBeCloseTo(Math.exp(-2), 6);
    expect(Array.from(cloud.rotations.subarray(4, 8))).toEqual([1, 0, 0, 0]);
  });

  it("refuses what is not a binary 3DGS .ply", () => {
    expect(() => decodeSplatCloud(new TextEncoder().encode("hello").buffer as ArrayBuffer)).toThrow(SplatFileError);
    const ascii = new TextEncoder().encode("ply\nformat ascii 1.0\nelement vertex 0\nend_header\n").buffer as ArrayBuffer;
    expect(() => decodeSplatCloud(ascii)).toThrow("ply format ascii, not binary_little_endian");
    const short = sample(4).slice(0, -8);
    expect(() => decodeSplatCloud(short)).toThrow(/body has \d+ bytes, 4 splats need/);
  });
});

describe("encodeSplatCloud", () => {
  it("writes the kept splats as a standard .ply that reads back the same (round trip)", () => {
    const cloud = decodeSplatCloud(sample(5));
    const deleted = Uint8Array.from([0, 1, 0, 1, 0]);
    const bytes = new Uint8Array(encodeSplatCloud(cloud, deleted));
    expect(validateSplatPly(bytes).count).toBe(3);
    const back = decodeSplatCloud(bytes.buffer as ArrayBuffer);
    expect(Array.from(back.positions)).toEqual([0, 0, -0, 2, 4, -2, 4, 8, -4]);
    [0, 2, 4].forEach((source, i) => {
      for (let axis = 0; axis < 3; axis++) expect(back.scales[i * 3 + axis]).toBe(cloud.scales[source * 3 + axis]);
      expect(Array.from(back.colors.subarray(i * 3, i * 3 + 3))).toEqual(Array.from(cloud.colors.subarray(source * 3, source * 3 + 3)));
    });
  });

  it("keeps every property of a kept row byte for byte, higher-order SH included", () => {
    const source = withExtraProperties(4);
    const cloud = decodeSplatCloud(source);
    const out = decodeSplatCloud(encodeSplatCloud(cloud, Uint8Array.from([1, 0, 0, 1])));
    expect(out.properties).toEqual(cloud.properties);
    expect(Buffer.from(out.rows).equals(Buffer.from(cloud.rows.subarray(cloud.stride, 3 * cloud.stride)))).toBe(true);
  });

  it("tints the flagged splats only (the selection's display) and clears their view-dependent colour", () => {
    const cloud = decodeSplatCloud(withExtraProperties(3));
    const shown = decodeSplatCloud(encodeSplatCloud(cloud, new Uint8Array(3), { flags: Uint8Array.from([0, 1, 0]), color: [1, 0.2, 0.2] }));
    expect(Array.from(shown.colors.subarray(3, 6)).map((v) => Number(v.toFixed(5)))).toEqual([1, 0.2, 0.2]);
    expect(Buffer.from(shown.rows.subarray(0, cloud.stride)).equals(Buffer.from(cloud.rows.subarray(0, cloud.stride)))).toBe(true);
    const restIndex = cloud.properties.indexOf("f_rest_0");
    expect(new DataView(shown.rows.buffer).getFloat32(cloud.stride + restIndex * 4, true)).toBe(0);
  });
});
