import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SAMPLE_SOURCE, plyToSplat } from "../../tests/setup/splat-samples";
import { splatRecordsProblem } from "./splat";

const guitar = plyToSplat(readFileSync(SAMPLE_SOURCE));
const head = (bytes: Buffer) => bytes.subarray(0, 64 * 1024);
const check = (bytes: Buffer) => splatRecordsProblem(head(bytes), bytes.length);

/** A copy of the guitar's first 100 splats with record `index` changed by `edit`. */
function withRecord(index: number, edit: (record: Buffer) => void): Buffer {
  const copy = Buffer.from(guitar.subarray(0, 100 * 32));
  edit(copy.subarray(index * 32, index * 32 + 32));
  return copy;
}

describe("splatRecordsProblem", () => {
  it("accepts a real .splat (the guitar scene, 90,854 records)", () => {
    expect(guitar.length).toBe(90_854 * 32);
    expect(check(guitar)).toBeNull();
  });

  it("refuses a size that is not whole 32-byte splats, saying so", () => {
    expect(check(guitar.subarray(0, guitar.length - 5))).toBe(
      `The .splat file's size (${guitar.length - 5} bytes) is not a whole number of 32-byte splats.`,
    );
    expect(splatRecordsProblem(new Uint8Array(16), 16)).toMatch(/size \(16 bytes\)/);
  });

  it("refuses records with impossible positions or scales", () => {
    expect(check(withRecord(7, (record) => record.writeFloatLE(Number.NaN, 4)))).toBe(
      "The .splat file's splat 8 has an impossible position; it is not a .splat model.",
    );
    expect(check(withRecord(0, (record) => record.writeFloatLE(3e9, 0)))).toMatch(/splat 1 has an impossible position/);
    expect(check(withRecord(3, (record) => record.writeFloatLE(-0.5, 16)))).toMatch(/splat 4 has an impossible scale/);
    expect(check(withRecord(3, (record) => record.writeFloatLE(Number.POSITIVE_INFINITY, 12)))).toMatch(/splat 4 has an impossible scale/);
  });

  it("refuses other bytes sized as whole records: text, and splats that draw nothing", () => {
    const text = Buffer.from("<!doctype html><title>not a model</title>".padEnd(64, " ").repeat(50));
    expect(check(text)).toMatch(/impossible (position|scale)/);
    expect(check(Buffer.alloc(32 * 50))).toMatch(/all transparent or without a rotation/);
  });
});
