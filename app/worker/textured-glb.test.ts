import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { assertValidGltf } from "./gltf-validation.server";
import { encodeTexturedGlb, parseTexturedObj } from "./textured-glb";

/** A 4×4 PNG, red on the left half, blue on the right. */
function twoColourPng(): Uint8Array {
  const png = new PNG({ width: 4, height: 4 });
  for (let i = 0; i < 16; i++) png.data.set((i % 4) < 2 ? [255, 0, 0, 255] : [0, 0, 255, 255], i * 4);
  return PNG.sync.write(png);
}

// One square in COLMAP's frame (z forward), two faces, the second face mapped to the right half.
const OBJ = [
  "v 0 0 2", "v 1 0 2", "v 0 1 2", "v 1 1 2",
  "vt 0.1 0.1", "vt 0.4 0.1", "vt 0.1 0.4", "vt 0.6 0.6", "vt 0.9 0.6", "vt 0.6 0.9",
  "f 1/1 3/2 2/3", "f 2/4 3/5 4/6", "",
].join("\n");

function readJson(glb: Buffer): Record<string, any> {
  const length = glb.readUInt32LE(12);
  return JSON.parse(glb.subarray(20, 20 + length).toString("utf8"));
}

describe("textured GLB", () => {
  it("reads sr-texture's OBJ with one UV per face corner", () => {
    const mesh = parseTexturedObj(OBJ);
    expect(mesh.positions.length).toBe(12);
    expect(Array.from(mesh.indices)).toEqual([0, 2, 1, 1, 2, 3]);
    expect(Array.from(mesh.cornerUvs.subarray(6, 8))).toEqual([Math.fround(0.6), Math.fround(0.6)]);
  });

  it("rejects faces pointing past the vertices", () => {
    expect(() => parseTexturedObj("v 0 0 0\nvt 0 0\nf 1/1 2/1 3/1\n")).toThrow(/out of range/);
  });

  it("passes Khronos' validator, carries the atlas as its base colour and turns y and z", async () => {
    const png = twoColourPng();
    const glb = encodeTexturedGlb(parseTexturedObj(OBJ), png);
    const report = await assertValidGltf(glb);
    expect(report.triangles).toBe(2);
    const json = readJson(glb);
    expect(json.materials[0].pbrMetallicRoughness.baseColorTexture.index).toBe(0);
    expect(json.images[0].mimeType).toBe("image/png");
    // The embedded image is our PNG, byte for byte.
    const binStart = 20 + glb.readUInt32LE(12) + 8;
    const view = json.bufferViews[json.images[0].bufferView];
    expect(Buffer.from(glb.subarray(binStart + view.byteOffset, binStart + view.byteOffset + view.byteLength)).equals(Buffer.from(png))).toBe(true);
    // y and z negated: the square at z = 2 (in front of COLMAP's camera) lies at z = -2 with y from -1 to 0.
    expect(json.accessors[0].min).toEqual([0, -1, -2]);
    expect(json.accessors[0].max).toEqual([1, 0, -2]);
    // Flat normals face the viewer of glTF's frame (+z) because the faces were wound towards -z in COLMAP's.
    const normalsView = json.bufferViews[1];
    const normals = new Float32Array(glb.buffer.slice(glb.byteOffset + binStart + normalsView.byteOffset, glb.byteOffset + binStart + normalsView.byteOffset + normalsView.byteLength));
    for (let i = 0; i < normals.length; i += 3) expect(normals[i + 2]).toBeCloseTo(1, 6);
  });
});
