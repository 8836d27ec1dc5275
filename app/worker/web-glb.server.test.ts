import { NodeIO, getBounds } from "@gltf-transform/core";
import { ALL_EXTENSIONS } from "@gltf-transform/extensions";
import { MeshoptDecoder } from "meshoptimizer";
import { PNG } from "pngjs";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { assertValidGltf } from "./gltf-validation.server";
import { encodeTexturedGlb, parseTexturedObj } from "./textured-glb";
import { compressGlbForWeb } from "./web-glb.server";

/** A 16×16 PNG, red on the left half, blue on the right. */
function twoColourPng(): Uint8Array {
  const png = new PNG({ width: 16, height: 16 });
  for (let i = 0; i < 256; i++) png.data.set(i % 16 < 8 ? [255, 0, 0, 255] : [0, 0, 255, 255], i * 4);
  return PNG.sync.write(png);
}

const OBJ = [
  "v 0 0 2", "v 1 0 2", "v 0 1 2", "v 1 1 2",
  "vt 0.1 0.1", "vt 0.4 0.1", "vt 0.1 0.4", "vt 0.6 0.6", "vt 0.9 0.6", "vt 0.6 0.9",
  "f 1/1 3/2 2/3", "f 2/4 3/5 4/6", "",
].join("\n");

describe("web-ready textured GLB", () => {
  it("compresses geometry with meshopt and the atlas to WebP, stays valid and decodes to the same mesh and colours", async () => {
    const raw = encodeTexturedGlb(parseTexturedObj(OBJ), twoColourPng());
    const glb = await compressGlbForWeb(raw);
    const report = await assertValidGltf(glb);
    expect(report.triangles).toBe(2);

    await MeshoptDecoder.ready;
    const io = new NodeIO().registerExtensions(ALL_EXTENSIONS).registerDependencies({ "meshopt.decoder": MeshoptDecoder });
    const document = await io.readBinary(glb);
    const root = document.getRoot();
    expect(root.listExtensionsUsed().map((e) => e.extensionName).sort()).toEqual(["EXT_meshopt_compression", "EXT_texture_webp", "KHR_materials_unlit", "KHR_mesh_quantization"]);
    const primitive = root.listMeshes()[0].listPrimitives()[0];
    const position = primitive.getAttribute("POSITION")!;
    const uv = primitive.getAttribute("TEXCOORD_0")!;
    const indices = primitive.getIndices();
    const corners: number[] = indices ? Array.from(indices.getArray()!) : [...Array(position.getCount()).keys()];
    expect(corners.length).toBe(6);
    // Quantized: the scene keeps its bounds (the node's transform undoes the quantization) and every
    // corner its uv within 1e-3 of the atlas.
    const rawDocument = await io.readBinary(raw);
    const rawPrimitive = rawDocument.getRoot().listMeshes()[0].listPrimitives()[0];
    const bounds = getBounds(root.listScenes()[0]);
    const rawBounds = getBounds(rawDocument.getRoot().listScenes()[0]);
    for (const key of ["min", "max"] as const) bounds[key].forEach((x, axis) => expect(Math.abs(x - rawBounds[key][axis])).toBeLessThan(1e-3));
    for (let k = 0; k < 6; k++) {
      const t: number[] = uv.getElement(corners[k], []);
      const expectedUv: number[] = rawPrimitive.getAttribute("TEXCOORD_0")!.getElement(k, []);
      t.forEach((x, axis) => expect(Math.abs(x - expectedUv[axis])).toBeLessThan(1e-3));
    }
    const texture = root.listTextures()[0];
    expect(texture.getMimeType()).toBe("image/webp");
    const { data, info } = await sharp(Buffer.from(texture.getImage()!)).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => Array.from(data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3));
    // Away from the colour edge the lossy WebP keeps the colours within 8 levels.
    const red = at(2, 8), blue = at(13, 8);
    console.warn(`webp texels: red ${red}, blue ${blue}; bytes ${raw.length} -> ${glb.length}`);
    [255, 0, 0].forEach((c, i) => expect(Math.abs(red[i] - c)).toBeLessThanOrEqual(8));
    [0, 0, 255].forEach((c, i) => expect(Math.abs(blue[i] - c)).toBeLessThanOrEqual(8));
  });
});
