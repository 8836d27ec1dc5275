import { describe, expect, it } from "vitest";
import { isSafeKey, modelUploadKey } from "./keys";

describe("storage keys", () => {
  it("are generated under the item's folder", () => {
    expect(modelUploadKey("0b9f", "ply")).toMatch(/^items\/0b9f\/model\/[0-9a-f-]{36}\.ply$/);
  });

  it("refuse traversal, absolute paths and odd characters", () => {
    expect(isSafeKey("items/a/model/b.glb")).toBe(true);
    for (const bad of ["../etc/passwd", "/abs/key", "items//x", "items/./x", "items/a\\b", "items/a b", "", "items/%2e%2e/x"]) {
      expect(isSafeKey(bad), bad).toBe(false);
    }
  });
});
