import { describe, expect, it } from "vitest";
import { unsupportedSplatReason } from "./splat-support";

function header(magic: string, version: number): Uint8Array {
  const bytes = new Uint8Array(16);
  bytes.set(new TextEncoder().encode(magic));
  new DataView(bytes.buffer).setUint32(4, version, true);
  return bytes;
}

describe("unsupportedSplatReason", () => {
  it("explains bare (SPZ v4) headers", () => {
    expect(unsupportedSplatReason(header("NGSP", 4), "spz")).toMatch(/SPZ version 4/);
  });
  it("accepts gzip-wrapped SPZ and other formats", () => {
    expect(unsupportedSplatReason(new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0]), "spz")).toBeNull();
    expect(unsupportedSplatReason(header("NGSP", 4), "ply")).toBeNull();
  });
});
