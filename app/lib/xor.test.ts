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
