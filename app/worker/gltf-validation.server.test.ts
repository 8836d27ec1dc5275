import { describe, expect, it } from "vitest";
import { assertValidGltf } from "./gltf-validation.server";
import { encodeGlb } from "./mesh-glb";

// A coloured tetrahedron, as the export stage would write it.
const tetrahedron = {
  positions: Float32Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]),
  colors: Uint8Array.from([255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255]),
  indices: Uint32Array.from([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]),
};

describe("the Khronos glTF validator on our GLB export", () => {
  it("finds no errors in the mesh GLB we write, and counts its triangles", async () => {
    await expect(assertValidGltf(encodeGlb(tetrahedron))).resolves.toMatchObject({ triangles: 4 });
  });

  it("refuses a truncated GLB, naming the problem", async () => {
    const glb = encodeGlb(tetrahedron);
    await expect(assertValidGltf(new Uint8Array(glb.subarray(0, glb.length - 24)))).rejects.toThrow(/fails glTF validation .*GLB_/);
  });
});
