import { randomBytes } from "node:crypto";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { spzHeaderProblem } from "./spz-header";

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
});
