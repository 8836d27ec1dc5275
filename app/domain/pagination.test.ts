import { describe, expect, it } from "vitest";
import { decodeItemCursor, encodeItemCursor, readItemCursor } from "./pagination";

const id = "3f0c2a4e-1b2c-4d5e-8f90-123456789abc";
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

describe("item cursors", () => {
  it("round-trips the cursors the lists give out", () => {
    const newest = { v: "2020-01-01T00:00:00.000Z", i: id };
    expect(readItemCursor(encodeItemCursor(newest), "newest")).toEqual(newest);
    expect(readItemCursor(encodeItemCursor({ v: 12, i: id }), "most_viewed")).toEqual({ v: 12, i: id });
    for (const p of ["f", "n"] as const) {
      const featured = { v: "2020-01-01T00:00:00.000Z", i: id, p };
      expect(readItemCursor(encodeItemCursor(featured), "featured")).toEqual(featured);
    }
  });
  it("refuses well-formed but wrong cursors as invalid input", () => {
    for (const [raw, sort] of [
      [b64({ v: "2020-01-01T00:00:00.000Z", i: "x" }), "newest"],
      [b64({ v: "yesterday", i: id }), "newest"],
      [b64({ v: "2020-13-45T00:00:00.000Z", i: id }), "newest"],
      [b64({ v: "many", i: id }), "most_viewed"],
      [b64({ v: 1.5, i: id }), "most_viewed"],
      [b64([1, 2]), "newest"],
      [b64({ v: "2020-01-01T00:00:00.000Z", i: id }), "featured"],
      [b64({ v: "2020-01-01T00:00:00.000Z", i: id, p: "x" }), "featured"],
      [b64({ v: "2020-01-01T00:00:00.000Z", i: id, p: "f" }), "newest"],
      [b64({ v: 3, i: id, p: "n" }), "most_viewed"],
      ["not base64 json", "newest"],
    ] as const) {
      expect(() => decodeItemCursor(raw, sort), raw).toThrow(expect.objectContaining({ code: "invalid_input", status: 400 }));
    }
  });
  it("no cursor is the first page", () => {
    expect(decodeItemCursor(undefined, "newest")).toBeNull();
  });
});
