import { describe, expect, it } from "vitest";
import type { ModelDownload } from "./download";
import { MIN_PART_SCALE } from "./part-transform";
import { allPartsFailedError, looksLikeMeshFile, validateScenePart } from "./scene-request";

const download = (): ModelDownload => ({
  done: Promise.resolve(new ArrayBuffer(1)),
  loaded: 0,
  total: null,
  received: () => null,
  onData: () => () => undefined,
});
const transform = { position: [0, 0, 0], quaternion: [0, 0, 0, 1], scale: [1, 1, 1] };

describe("validateScenePart", () => {
  it("accepts a download or a download factory and normalizes the transform", () => {
    const part = validateScenePart({ id: "a", download, fileName: "model.glb", name: "Chair", transform: { ...transform, scale: [0, 1, 1] } });
    expect(part).toMatchObject({ id: "a", fileName: "model.glb", name: "Chair" });
    expect(part.transform.scale).toEqual([MIN_PART_SCALE, 1, 1]);
    expect(validateScenePart({ id: "b", download: download(), transform }).id).toBe("b");
  });

  it("names the part in its readable errors", () => {
    expect(() => validateScenePart({ id: "", download, transform })).toThrow("needs an id");
    expect(() => validateScenePart({ id: "a", name: "Chair", transform })).toThrow("Chair: no download was given");
    expect(() => validateScenePart({ id: "a", name: "Chair", download, transform: { ...transform, position: [0, 0, NaN] } })).toThrow(
      "Chair: The position must be 3 finite numbers",
    );
    expect(() => validateScenePart({ id: "a", download, transform: null })).toThrow("a: A part's transform is missing");
    expect(() => validateScenePart(null)).toThrow("must be an object");
  });
});

describe("looksLikeMeshFile", () => {
  it("tells glTF names", () => {
    expect(looksLikeMeshFile("model.glb")).toBe(true);
    expect(looksLikeMeshFile("Model.GLTF")).toBe(true);
    expect(looksLikeMeshFile("model.sog")).toBe(false);
    expect(looksLikeMeshFile(undefined)).toBe(false);
  });
});

describe("allPartsFailedError", () => {
  it("passes a single part's error on and sums up several", () => {
    const only = new Error("Failed to download file: 404 - Not found");
    expect(allPartsFailedError([only])).toBe(only);
    expect(allPartsFailedError([new Error("bad glTF"), new Error("404")]).message).toBe("None of the 2 models of this scene could be shown (bad glTF)");
  });
});
