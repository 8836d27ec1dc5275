import { describe, expect, it } from "vitest";
import { deliveryCopyKey, isSafeKey, itemIdOfKey, modelUploadKey } from "./keys";

describe("storage keys", () => {
  it("are generated under the item's folder", () => {
    expect(modelUploadKey("0b9f", "ply")).toMatch(/^items\/0b9f\/model\/[0-9a-f-]{36}\.ply$/);
  });

  it("name the item whose folder holds them", () => {
    expect(itemIdOfKey(modelUploadKey("0b9f", "ply"))).toBe("0b9f");
    expect(itemIdOfKey(deliveryCopyKey("c4d2", "items/c4d2/model/x.ply", "ksplat"))).toBe("c4d2");
    for (const outside of ["users/u1/avatar/a", "items/", "items/only-a-folder/", "other/items/a/b"]) expect(itemIdOfKey(outside), outside).toBeNull();
  });

  it("refuse traversal, absolute paths and odd characters", () => {
    expect(isSafeKey("items/a/model/b.glb")).toBe(true);
    for (const bad of ["../etc/passwd", "/abs/key", "items//x", "items/./x", "items/a\\b", "items/a b", "", "items/%2e%2e/x"]) {
      expect(isSafeKey(bad), bad).toBe(false);
    }
  });
});
