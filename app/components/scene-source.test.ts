import { describe, expect, it } from "vitest";
import { isSceneSource, partFailureNotice, sceneFilesKey, transformsKey, type SceneSource } from "./scene-source";

const transform = { position: [0, 0, 0], quaternion: [0, 0, 0, 1], scale: [1, 1, 1] } as SceneSource["parts"][number]["transform"];
const scene: SceneSource = {
  parts: [
    { id: "a", url: "/api/files/a", token: "t", xorKey: new Uint8Array([1, 2]), fileName: "model.glb", transform, name: "Chair" },
    { id: "b", url: "/api/files/b", transform },
  ],
};

describe("isSceneSource", () => {
  it("tells scenes from single models", () => {
    expect(isSceneSource(scene)).toBe(true);
    expect(isSceneSource({ url: "/api/files/a" })).toBe(false);
  });
});

describe("sceneFilesKey", () => {
  it("stays the same for an equal scene rebuilt on a render (new arrays and keys)", () => {
    const rebuilt: SceneSource = { parts: scene.parts.map((part) => ({ ...part, xorKey: part.xorKey ? new Uint8Array(part.xorKey) : part.xorKey })) };
    expect(sceneFilesKey(rebuilt)).toBe(sceneFilesKey(scene));
  });

  it("changes with the files but not with the transforms", () => {
    const moved: SceneSource = { parts: scene.parts.map((part) => ({ ...part, transform: { ...transform, position: [1, 2, 3] } })) };
    expect(sceneFilesKey(moved)).toBe(sceneFilesKey(scene));
    expect(transformsKey(moved)).not.toBe(transformsKey(scene));
    const otherToken: SceneSource = { parts: scene.parts.map((part) => ({ ...part, token: "other" })) };
    expect(sceneFilesKey(otherToken)).not.toBe(sceneFilesKey(scene));
    expect(sceneFilesKey({ parts: scene.parts.slice(1) })).not.toBe(sceneFilesKey(scene));
  });
});

describe("partFailureNotice", () => {
  it("says how many of the models could not be shown, and why", () => {
    expect(partFailureNotice([], 3)).toBeNull();
    expect(partFailureNotice([{ id: "a", name: "Chair", message: "Failed to download file: 404 - Not found" }], 3)).toBe(
      "1 of 3 models could not be shown: Chair: Failed to download file: 404 - Not found",
    );
    expect(
      partFailureNotice(
        [
          { id: "a", name: "Chair", message: "bad glTF" },
          { id: "b", message: "404" },
        ],
        2,
      ),
    ).toBe("2 of 2 models could not be shown: Chair: bad glTF; b: 404");
  });
});
