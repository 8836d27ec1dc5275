import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { spzHeaderProblem } from "./spz";
import { SHARED_DATA } from "../../tests/setup/shared-data";

function spzHeader({ version = 2, points = 1000, shDegree = 1 } = {}) {
  const header = Buffer.alloc(16);
  header.write("NGSP", 0, "latin1");
  header.writeUInt32LE(version, 4);
  header.writeUInt32LE(points, 8);
  header[12] = shDegree;
  header[13] = 12;
  // Followed by point data, so that the head is a prefix of a longer stream.
  return Buffer.concat([header, randomBytes(points * 20)]);
}

describe("spzHeaderProblem", () => {
  it("accepts a gzip whose contents start with a sound SPZ header, also from a prefix of the stream", () => {
    const whole = gzipSync(spzHeader());
    expect(spzHeaderProblem(whole)).toBeNull();
    expect(whole.length).toBeGreaterThan(8192);
    expect(spzHeaderProblem(whole.subarray(0, 4096))).toBeNull();
  });

  it("refuses a gzip of HTML", () => {
    const html = gzipSync(Buffer.from("<!doctype html><html><body>not a model</body></html>"));
    expect(spzHeaderProblem(html)).toMatch(/no SPZ header/);
  });

  it("refuses bytes that only start like a gzip", () => {
    expect(spzHeaderProblem(Buffer.from([0x1f, 0x8b, 1, 2, 3, 4, 5, 6, 7, 8]))).toMatch(/not a readable gzip/);
  });

  it("refuses impossible versions, counts and degrees", () => {
    expect(spzHeaderProblem(gzipSync(spzHeader({ version: 9 })))).toMatch(/version/);
    expect(spzHeaderProblem(gzipSync(spzHeader({ points: 0 })))).toMatch(/0 points/);
    expect(spzHeaderProblem(gzipSync(spzHeader({ shDegree: 5 })))).toMatch(/degree 5/);
  });

  it("accepts a real SPZ 4 file (plain NGSP header, as splat-transform writes by default)", () => {
    const biker = readFileSync(path.join(SHARED_DATA, "splats/biker.spz")).subarray(0, 64 * 1024);
    expect(biker.toString("latin1", 0, 4)).toBe("NGSP");
    expect(spzHeaderProblem(biker)).toBeNull();
  });

  it("refuses a file that is neither gzip nor SPZ 4, and versions in the wrong container", () => {
    expect(spzHeaderProblem(Buffer.from("PK\u0003\u0004 not an spz at all, only text"))).toBe(
      "The .spz file is neither a gzip stream (SPZ 1–3) nor an SPZ 4 file (no NGSP header).",
    );
    expect(spzHeaderProblem(spzHeader({ version: 2 }))).toBe("The .spz file has an unsupported version (2).");
    expect(spzHeaderProblem(gzipSync(spzHeader({ version: 4 })))).toBe("The .spz file has an unsupported version (4 inside a gzip stream).");
    expect(spzHeaderProblem(spzHeader({ version: 4, points: 0 }))).toMatch(/0 points/);
  });
});
