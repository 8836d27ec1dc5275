import { readFileSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { inspectSogBundle } from "~/formats/sog-bundle.server";
import { detectModelFormat } from "~/formats/model-format";
import { splatRecordsProblem } from "~/formats/splat";
import { spzHeaderProblem } from "~/formats/spz";
import { splatSamples } from "./splat-samples";

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
});
