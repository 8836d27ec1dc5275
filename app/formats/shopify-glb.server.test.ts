import { Document, NodeIO } from "@gltf-transform/core";
import { ALL_EXTENSIONS, EXTMeshGPUInstancing, KHRMaterialsUnlit } from "@gltf-transform/extensions";
import { draco } from "@gltf-transform/functions";
import draco3d from "draco3dgltf";
import { readFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { rasterCamera } from "~/thumbnails/camera";
import { parseHexColor } from "~/thumbnails/color";
import type { MeshScene } from "~/thumbnails/mesh-scene";
import { readGlbScene } from "~/thumbnails/read-glb.server";
import { renderMesh } from "~/thumbnails/render-mesh";
import { downsample } from "~/thumbnails/render-thumbnail.server";
import { DEFAULT_BACKGROUND } from "~/viewer/background";
import { openingCamera } from "~/viewer/camera-fit";
import { psnr } from "~/worker/evaluation/image-quality";
import { assertValidGltf } from "~/worker/gltf-validation.server";
import { compressGlbForWeb } from "~/worker/web-glb.server";
import { SHARED_DATA } from "../../tests/setup/shared-data";
import { SHOPIFY_GLB_MAX_BYTES, SHOPIFY_GLB_MAX_TEXTURE, SHOPIFY_GLB_MAX_TRIANGLES, ShopifyGlbError, shopifyReadyGlb, type ShopifyGlbReport } from "./shopify-glb.server";

// The Shopify-ready GLB (issue 40) of a real model (the Egyptian cat statue from Sketchfab, ../shared/data) made
// into a scan-like web GLB first (meshopt, quantized, WebP textures, unlit): valid for Khronos' validator, core
// glTF only, within Shopify's limits, and drawn like its input by our own renderer from the same camera (the
// viewer's opening view of the input). Then an upload-like GLB: Draco, GPU instancing, alpha.

const FORBIDDEN = ["EXT_meshopt_compression", "KHR_draco_mesh_compression", "KHR_mesh_quantization", "EXT_texture_webp", "KHR_texture_basisu", "EXT_mesh_gpu_instancing"];
const WIDTH = 320;
const HEIGHT = 240;
const SUPERSAMPLING = 2;

function glbJson(glb: Uint8Array) {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  return JSON.parse(Buffer.from(glb.subarray(20, 20 + view.getUint32(12, true))).toString("utf8"));
}

/** Renders `glb` as the viewer opens `reference` (the same camera for input and output). */
async function renderLike(reference: MeshScene, glb: Uint8Array) {
  const pose = openingCamera({ bounds: reference.bounds, kind: "mesh", aspect: WIDTH / HEIGHT });
  const camera = rasterCamera(pose, WIDTH * SUPERSAMPLING, HEIGHT * SUPERSAMPLING);
  return downsample(renderMesh(await readGlbScene(glb), camera, parseHexColor(DEFAULT_BACKGROUND)), SUPERSAMPLING);
}

/** Core glTF only, JPEG/PNG ≤ 2048 px, within the budgets and valid; the validator counts each mesh once (`meshTriangles`). */
async function expectShopifySafe(glb: Uint8Array, report: ShopifyGlbReport, maxTriangles: number, meshTriangles = report.outputTriangles) {
  const json = glbJson(glb);
  expect((json.extensionsUsed ?? []).filter((name: string) => FORBIDDEN.includes(name))).toEqual([]);
  expect((json.extensionsUsed ?? []).every((name: string) => ["KHR_materials_unlit", "KHR_texture_transform"].includes(name))).toBe(true);
  for (const image of json.images ?? []) expect(["image/jpeg", "image/png"]).toContain(image.mimeType);
  for (const texture of report.textures) expect(Math.max(texture.width, texture.height)).toBeLessThanOrEqual(SHOPIFY_GLB_MAX_TEXTURE);
  expect(glb.length).toBeLessThanOrEqual(SHOPIFY_GLB_MAX_BYTES);
  expect(report.outputTriangles).toBeLessThanOrEqual(maxTriangles);
  const validated = await assertValidGltf(glb); // throws on any error
  expect(validated.triangles).toBe(meshTriangles);
}

const describeTextures = (textures: Array<{ width: number; height: number; mimeType: string }>) => textures.map((t) => `${t.width}x${t.height} ${t.mimeType}`).join(", ");

describe("Shopify-ready GLB", () => {
  let web: Uint8Array;
  let webScene: MeshScene;
  beforeAll(async () => {
    web = await compressGlbForWeb(new Uint8Array(readFileSync(path.join(SHARED_DATA, "models", "cat.glb"))));
    webScene = await readGlbScene(web);
  });

  it("decodes a scan-like web GLB to core glTF with JPEG textures, valid, within the limits, drawn as before", async () => {
    expect(glbJson(web).extensionsUsed).toEqual(expect.arrayContaining(["EXT_meshopt_compression", "EXT_texture_webp", "KHR_mesh_quantization"]));
    const { glb, report } = await shopifyReadyGlb(web);
    await expectShopifySafe(glb, report, SHOPIFY_GLB_MAX_TRIANGLES);
    expect(report.textures.map((t) => t.mimeType)).toEqual(report.textures.map(() => "image/jpeg"));
    expect(report.outputTriangles).toBe(report.inputTriangles);
    const similarity = psnr(await renderLike(webScene, web), await renderLike(webScene, glb));
    process.stdout.write(
      `Shopify-ready GLB of the cat: ${report.inputBytes} -> ${report.outputBytes} bytes, ${report.inputTriangles} -> ${report.outputTriangles} triangles, ` +
        `textures ${describeTextures(report.textures)}; render PSNR against the web GLB ${similarity.toFixed(2)} dB (bound 40 dB)\n`,
    );
    expect(similarity).toBeGreaterThan(40);
  });

  it("simplifies to a triangle budget, and shrinks textures to a size budget, still valid and alike", async () => {
    // The cat has 4,622 triangles: 2,000 makes the simplifier work.
    const fewer = await shopifyReadyGlb(web, { maxTriangles: 2_000 });
    await expectShopifySafe(fewer.glb, fewer.report, 2_000);
    const simplified = psnr(await renderLike(webScene, web), await renderLike(webScene, fewer.glb));

    const smaller = await shopifyReadyGlb(web, { maxBytes: 400_000 });
    await expectShopifySafe(smaller.glb, smaller.report, SHOPIFY_GLB_MAX_TRIANGLES);
    expect(smaller.glb.length).toBeLessThanOrEqual(400_000);
    expect(Math.max(...smaller.report.textures.map((t) => t.width))).toBeLessThan(1024);
    const shrunk = psnr(await renderLike(webScene, web), await renderLike(webScene, smaller.glb));
    process.stdout.write(
      `budgets: ${fewer.report.inputTriangles} -> ${fewer.report.outputTriangles} triangles (${fewer.report.outputBytes} bytes), PSNR ${simplified.toFixed(2)} dB (bound 30 dB); ` +
        `400 kB -> ${smaller.glb.length} bytes with ${describeTextures(smaller.report.textures)}, PSNR ${shrunk.toFixed(2)} dB (bound 35 dB)\n`,
    );
    expect(simplified).toBeGreaterThan(30);
    expect(shrunk).toBeGreaterThan(35);
  });

  it("decodes an upload-like GLB (Draco, GPU instances, an alpha-blended texture) keeping alpha as PNG only where it is used", async () => {
    const document = new Document();
    const buffer = document.createBuffer();
    const quad = (x: number) =>
      document
        .createPrimitive()
        .setAttribute("POSITION", document.createAccessor().setBuffer(buffer).setType("VEC3").setArray(new Float32Array([x, 0, 0, x + 1, 0, 0, x, 1, 0, x + 1, 1, 0])))
        .setAttribute("TEXCOORD_0", document.createAccessor().setBuffer(buffer).setType("VEC2").setArray(new Float32Array([0, 1, 1, 1, 0, 0, 1, 0])))
        .setIndices(document.createAccessor().setBuffer(buffer).setType("SCALAR").setArray(new Uint16Array([0, 1, 2, 2, 1, 3])));
    // Half transparent on the left, opaque on the right. The opaque material's (wider than 2048 px) has the same
    // alpha, which it does not use: it becomes a JPEG, scaled down.
    const halfTransparent = (width: number, height: number) => {
      const texels = new Uint8Array(width * height * 4);
      for (let i = 0; i < width * height; i++) texels.set(i % width < width / 2 ? [40, 40, 200, 128] : [200, 40, 40, 255], i * 4);
      return sharp(texels, { raw: { width, height, channels: 4 } }).png().toBuffer();
    };
    const blendedTexture = document.createTexture("blended").setImage(new Uint8Array(await halfTransparent(64, 32))).setMimeType("image/png");
    const opaqueTexture = document.createTexture("opaque").setImage(new Uint8Array(await halfTransparent(3000, 40))).setMimeType("image/png");
    const unlit = document.createExtension(KHRMaterialsUnlit);
    const blended = document.createMaterial("glass").setBaseColorTexture(blendedTexture).setAlphaMode("BLEND").setExtension("KHR_materials_unlit", unlit.createUnlit());
    const opaque = document.createMaterial("paint").setBaseColorTexture(opaqueTexture);
    const mesh = document.createMesh().addPrimitive(quad(0).setMaterial(blended)).addPrimitive(quad(2).setMaterial(opaque));
    const instancing = document.createExtension(EXTMeshGPUInstancing).setRequired(true);
    const translations = document.createAccessor().setBuffer(buffer).setType("VEC3").setArray(new Float32Array([0, 0, 0, 0, 2, 0, 0, 4, 0]));
    const node = document.createNode().setMesh(mesh).setExtension("EXT_mesh_gpu_instancing", instancing.createInstancedMesh().setAttribute("TRANSLATION", translations));
    document.createScene().addChild(node);
    const [encoder, decoder] = await Promise.all([draco3d.createEncoderModule(), draco3d.createDecoderModule()]);
    const io = new NodeIO().registerExtensions(ALL_EXTENSIONS).registerDependencies({ "draco3d.encoder": encoder, "draco3d.decoder": decoder });
    await document.transform(draco());
    const upload = await io.writeBinary(document);
    expect(glbJson(upload).extensionsUsed).toEqual(expect.arrayContaining(["KHR_draco_mesh_compression", "EXT_mesh_gpu_instancing"]));

    const { glb, report } = await shopifyReadyGlb(upload);
    await expectShopifySafe(glb, report, SHOPIFY_GLB_MAX_TRIANGLES, 4);
    expect(report.inputTriangles).toBe(12); // 2 quads × 3 instances
    expect(report.extensionsUsed).toEqual(["KHR_materials_unlit"]);
    expect(report.textures).toEqual([
      { width: 64, height: 32, mimeType: "image/png" },
      { width: 2048, height: 27, mimeType: "image/jpeg" },
    ]);
    // Our renderer ignores GPU instancing, so the output is checked against what the three instances cover.
    const scene = await readGlbScene(glb);
    expect(scene.triangles).toBe(12);
    expect(scene.bounds).toEqual({ min: [0, 0, 0], max: [3, 5, 0] });
    const output = await new NodeIO().registerExtensions(ALL_EXTENSIONS).readBinary(glb);
    const png = output.getRoot().listTextures().find((t) => t.getMimeType() === "image/png")!;
    const { data } = await sharp(png.getImage()!).raw().toBuffer({ resolveWithObject: true });
    expect([data[3], data[63 * 4 + 3]]).toEqual([128, 255]); // alpha kept: half on the left, opaque on the right
    const jpeg = output.getRoot().listTextures().find((t) => t.getMimeType() === "image/jpeg")!;
    const left = await sharp(jpeg.getImage()!).extract({ left: 8, top: 8, width: 1, height: 1 }).raw().toBuffer();
    // The opaque material's colour is kept as it is, not composited over black where alpha is 0.5.
    expect(Math.abs(left[2] - 200)).toBeLessThan(12);
    process.stdout.write(`upload-like GLB: ${report.inputBytes} -> ${report.outputBytes} bytes, ${report.outputTriangles} triangles, textures ${describeTextures(report.textures)}\n`);
  });

  it("refuses what cannot be read or cannot fit, with a message for the merchant", async () => {
    await expect(shopifyReadyGlb(new TextEncoder().encode("not a model"))).rejects.toThrow(ShopifyGlbError);
    await expect(shopifyReadyGlb(web, { maxBytes: 10_000 })).rejects.toThrow(/cannot be made smaller than 10 KB for Shopify/);
    // A texture sharp cannot decode (as KTX2 would be): refused, not dropped from the model.
    const document = new Document();
    const buffer = document.createBuffer();
    const texture = document.createTexture().setImage(new TextEncoder().encode("not an image")).setMimeType("image/png");
    const primitive = document
      .createPrimitive()
      .setAttribute("POSITION", document.createAccessor().setBuffer(buffer).setType("VEC3").setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0])))
      .setMaterial(document.createMaterial().setBaseColorTexture(texture));
    document.createScene().addChild(document.createNode().setMesh(document.createMesh().addPrimitive(primitive)));
    await expect(shopifyReadyGlb(await new NodeIO().writeBinary(document))).rejects.toThrow(/texture \(image\/png\) that cannot be converted for Shopify/);
  });
});
