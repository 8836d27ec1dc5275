import { describe, expect, it } from "vitest";
import { xorInPlace, xorKeyFromString } from "./xor";

describe("xorInPlace", () => {
  it("round-trips, and chunked decoding with offsets equals whole-buffer decoding", () => {
    const key = xorKeyFromString("k3y");
    const original = Uint8Array.from({ length: 1000 }, (_, i) => (i * 7) % 256);
    const whole = xorInPlace(original.slice(), key, 0);
    expect(whole).not.toEqual(original);
    const chunked = new Uint8Array(1000);
    for (let offset = 0; offset < 1000; offset += 333) {
      chunked.set(xorInPlace(original.slice(offset, offset + 333), key, offset), offset);
    }
    expect(chunked).toEqual(whole);
    expect(xorInPlace(whole.slice(), key, 0)).toEqual(original);
  });
});

describe("xorInPlace, word by word", () => {
  /** The definition: byte i of the stream XOR key[(offset + i) mod key length]. */
  function byteByByte(bytes: Uint8Array, key: Uint8Array, offset: number): Uint8Array {
    return bytes.map((b, i) => b ^ key[(offset + i) % key.length]);
  }

  it("equals the byte-by-byte definition for every key length, offset, alignment and length", () => {
    const plain = Uint8Array.from({ length: 301 }, (_, i) => (i * 131 + 17) % 256);
    for (const key of ["k", "ab", "k3y", "four", "load-bench-xor-key", "a".repeat(37)].map(xorKeyFromString)) {
      for (const align of [0, 1, 2, 3]) {
        for (const length of [0, 1, 3, 4, 7, 64, 300 - align]) {
          for (const offset of [0, 1, 5, 1_000_003]) {
            const buffer = new Uint8Array(304);
            buffer.set(plain.subarray(0, length), align);
            const chunk = buffer.subarray(align, align + length);
            const expected = byteByByte(plain.subarray(0, length), key, offset);
            expect(xorInPlace(chunk, key, offset)).toEqual(expected);
            expect(buffer.subarray(0, align).every((b) => b === 0) && buffer.subarray(align + length).every((b) => b === 0)).toBe(true);
          }
        }
      }
    }
  });
});
