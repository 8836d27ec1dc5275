import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { expectedPlyLength, readPlyHeader } from "../formats/ply";
import { previewFromPrefix, supportsPreview } from "./splat-preview";
import { SHARED_DATA } from "../../tests/setup/shared-data";

const DATA = SHARED_DATA;
const guitar = new Uint8Array(readFileSync(path.join(DATA, "splats/guitar.ply")));
const STRIDE = 14 * 4; // x y z, f_dc ×3, opacity, rot ×4, scale ×3

describe("previewFromPrefix", () => {
  it("cuts a partial .ply at its last whole splat and announces that many in a valid header", () => {
    const header = readPlyHeader(guitar)!;
    const prefix = guitar.subarray(0, header.bodyOffset + 30_000 * STRIDE + 17); // a splat and a bit
    const preview = previewFromPrefix(prefix, "ply")!;
    expect(preview.splats).toBe(30_000);
    const text = readPlyHeader(preview.bytes)!.text;
    expect(text).toContain("element vertex 30000\n");
    expect(text).not.toContain("90854");
    expect(expectedPlyLength(preview.bytes)).toBe(preview.bytes.length);
    // The splat records are the file's own, byte for byte.
    const body = preview.bytes.subarray(readPlyHeader(preview.bytes)!.bodyOffset);
    expect(Buffer.from(body).equals(Buffer.from(guitar.subarray(header.bodyOffset, header.bodyOffset + 30_000 * STRIDE)))).toBe(true);
  });

  it("waits for enough splats, and never announces more than the file has", () => {
    expect(previewFromPrefix(guitar.subarray(0, 4_000), "ply")).toBeNull();
    expect(previewFromPrefix(guitar, "ply")!.splats).toBe(90_854);
  });

  it("handles .splat records and refuses formats that cannot be shown in part", () => {
    const splat = new Uint8Array(32 * 12_000 + 5);
    expect(previewFromPrefix(splat, "splat")).toMatchObject({ splats: 12_000 });
    expect(previewFromPrefix(splat.subarray(0, 32 * 100), "splat")).toBeNull();
    const compressed = new Uint8Array(readFileSync(path.join(DATA, "splats/guitar.compressed.ply")));
    expect(previewFromPrefix(compressed, "ply")).toBeNull(); // chunk + vertex elements: not a plain layout
    expect(supportsPreview("ply")).toBe(true);
    expect(supportsPreview("sog")).toBe(false);
    expect(supportsPreview("compressed-ply")).toBe(false);
  });
});
