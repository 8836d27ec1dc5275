import { describe, expect, it } from "vitest";
import { canonicalJson, manifestMatches, outputsHash, stageInputHash, type StageManifest } from "./manifest";

describe("stage manifests", () => {
  it("hash equal inputs equally, whatever the key order", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}');
    const one = stageInputHash({ stage: "features", version: 1, params: { a: 1, b: 2 }, upstream: "abc" });
    const two = stageInputHash({ stage: "features", version: 1, params: { b: 2, a: 1 }, upstream: "abc" });
    expect(one).toBe(two);
    expect(one).toMatch(/^[0-9a-f]{64}$/);
  });

  it("change when the stage's version, parameters or upstream outputs change", () => {
    const base = { stage: "matching", version: 1, params: { mode: "exhaustive" }, upstream: "u1" };
    const hash = stageInputHash(base);
    expect(stageInputHash({ ...base, version: 2 })).not.toBe(hash);
    expect(stageInputHash({ ...base, params: { mode: "sequential" } })).not.toBe(hash);
    expect(stageInputHash({ ...base, upstream: "u2" })).not.toBe(hash);
  });

  it("hash outputs by content, not by where they are stored", () => {
    const files = [
      { path: "images/b.jpg", size: 2, sha256: "bb" },
      { path: "images/a.jpg", size: 1, sha256: "aa" },
    ];
    expect(outputsHash(files, { n: 2 })).toBe(outputsHash([...files].reverse(), { n: 2 }));
    expect(outputsHash(files, { n: 2 })).not.toBe(outputsHash([{ ...files[0], sha256: "cc" }, files[1]], { n: 2 }));
    expect(outputsHash(files, { n: 2 })).not.toBe(outputsHash(files, { n: 3 }));
  });

  it("match only the same stage with the same input hash", () => {
    const manifest = { stage: "features", inputHash: "h1" } as StageManifest;
    expect(manifestMatches(manifest, "features", "h1")).toBe(true);
    expect(manifestMatches(manifest, "features", "h2")).toBe(false);
    expect(manifestMatches(manifest, "matching", "h1")).toBe(false);
    expect(manifestMatches(null, "features", "h1")).toBe(false);
  });
});
