import { readFileSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { inspectSogBundle } from "~/formats/sog-bundle.server";
import { detectModelFormat } from "~/formats/model-format";
import { splatRecordsProblem } from "~/formats/splat";
import { spzHeaderProblem } from "~/formats/spz";
import { parsePlyHeader, plyRecordBytes } from "~/formats/ply";
import { SAMPLE_SOURCE, splatSamples, thinnedSplatPly } from "./splat-samples";

describe("splatSamples", { timeout: 60_000 }, () => {
  it("makes guitar.ply into a .spz v3, a .splat and a .sog of the same 90,854 splats, each passing the upload checks", () => {
    const samples = splatSamples();
    const head = (file: string) => new Uint8Array(readFileSync(file).subarray(0, 64 * 1024));
    expect(detectModelFormat(head(samples.spz), "model.spz")).toBe("spz");
    expect(spzHeaderProblem(head(samples.spz))).toBeNull();
    expect(statSync(samples.splat).size).toBe(samples.splats * 32);
    expect(detectModelFormat(head(samples.splat), "model.splat")).toBe("splat");
    expect(splatRecordsProblem(head(samples.splat), statSync(samples.splat).size)).toBeNull();
    expect(detectModelFormat(head(samples.sog), "model.sog")).toBe("sog");
    expect(inspectSogBundle(readFileSync(samples.sog)).splats).toBe(samples.splats);
  });

  it("thins guitar.ply to every 8th splat: the same properties, 11,357 records, the first and the last kept byte for byte", () => {
    const { file, splats } = thinnedSplatPly(8);
    const thin = readFileSync(file);
    const whole = readFileSync(SAMPLE_SOURCE);
    const [thinHeader, wholeHeader] = [parsePlyHeader(thin), parsePlyHeader(whole)];
    expect(splats).toBe(11_357);
    expect(thinHeader.elements[0].count).toBe(splats);
    expect(thinHeader.elements[0].properties).toEqual(wholeHeader.elements[0].properties);
    const record = plyRecordBytes(wholeHeader.elements[0])!;
    expect(thin.length).toBe(thinHeader.bodyOffset + splats * record);
    const recordOf = (bytes: Buffer, offset: number, i: number) => bytes.subarray(offset + i * record, offset + (i + 1) * record);
    expect(recordOf(thin, thinHeader.bodyOffset, 0).equals(recordOf(whole, wholeHeader.bodyOffset, 0))).toBe(true);
    expect(recordOf(thin, thinHeader.bodyOffset, splats - 1).equals(recordOf(whole, wholeHeader.bodyOffset, (splats - 1) * 8))).toBe(true);
    expect(detectModelFormat(new Uint8Array(thin.subarray(0, 64 * 1024)), "guitar.ply")).toBe("ply");
  });
});
