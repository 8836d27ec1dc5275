/**
 * A Shopify-ready GLB (issue 40, docs/decisions/044): the file a product's 3D media (MODEL_3D) gets. Shopify's
 * pipeline (its viewer, the USDZ it makes for iPhone AR, the Shop app) is not trusted with what our web GLBs use —
 * meshopt geometry with quantized attributes, WebP atlases (app/worker/web-glb.server.ts) — nor with Draco or
 * KTX2 from uploads. So the output holds core glTF 2.0 only, plus KHR_materials_unlit and KHR_texture_transform
 * where the input has them (model-viewer honours both): geometry decoded to floats, GPU instances made nodes,
 * strips and fans made triangle lists, textures as JPEG (PNG where a blended or masked material uses the image's
 * alpha) at most 2048 px on the longer side (Apple's AR guidance). It stays within 500,000 triangles
 * (meshoptimizer's simplifier) and 15 MB: above that Shopify re-optimizes the file itself, out of our control.
 * Over the size, textures shrink first (2048 → 1024 → 512), then JPEG quality drops, then the mesh is simplified.
 */
import { Logger, NodeIO, type Document, type Texture } from "@gltf-transform/core";
import { ALL_EXTENSIONS } from "@gltf-transform/extensions";
import { convertPrimitiveToTriangles, dequantize, prune, simplify, uninstance, unpartition, weld } from "@gltf-transform/functions";
import { MeshoptDecoder, MeshoptSimplifier } from "meshoptimizer";
import sharp from "sharp";
import { readGlbDocument } from "./glb-document.server";

export const SHOPIFY_GLB_MAX_BYTES = 15 * 1024 * 1024;
export const SHOPIFY_GLB_MAX_TRIANGLES = 500_000;
export const SHOPIFY_GLB_MAX_TEXTURE = 2048;

/** Extensions the output may keep; every other one is decoded away (compression, instancing) or dropped. */
const KEPT_EXTENSIONS = new Set(["KHR_materials_unlit", "KHR_texture_transform"]);
/** Tried in order until the file fits: longest texture side and JPEG quality. */
const TEXTURE_STEPS: Array<{ size: number; quality: number }> = [
  { size: SHOPIFY_GLB_MAX_TEXTURE, quality: 88 },
  { size: 1024, quality: 88 },
  { size: 512, quality: 88 },
  { size: 512, quality: 75 },
  { size: 512, quality: 60 },
];
/** Below this many triangles the simplifier is not asked for fewer: the model would no longer be the product. */
const MIN_TRIANGLES = 1_000;
const TRIANGLES = 4;
const TRIANGLE_STRIP = 5;
const TRIANGLE_FAN = 6;

export class ShopifyGlbError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ShopifyGlbError";
  }
}

export interface ShopifyGlbReport {
  inputBytes: number;
  outputBytes: number;
  inputTriangles: number;
  outputTriangles: number;
  textures: Array<{ width: number; height: number; mimeType: string }>;
  extensionsUsed: string[];
}

/** glTF-Transform's reader and writer with every extension and the meshopt decoder (the core-glTF copy's other users read it back with it). */
export async function nodeIO(): Promise<NodeIO> {
  await Promise.all([MeshoptDecoder.ready, MeshoptSimplifier.ready]);
  return new NodeIO().setLogger(new Logger(Logger.Verbosity.ERROR)).registerExtensions(ALL_EXTENSIONS).registerDependencies({ "meshopt.decoder": MeshoptDecoder });
}

async function read(glb: Uint8Array): Promise<Document> {
  const io = await nodeIO();
  try {
    return await readGlbDocument(io, glb);
  } catch (error) {
    throw new ShopifyGlbError(`The model could not be read as a GLB file (${(error as Error).message}).`);
  }
}

/** Triangles the scenes draw: a mesh counts once for each node that shows it. */
function countTriangles(document: Document): number {
  let triangles = 0;
  for (const scene of document.getRoot().listScenes()) {
    scene.traverse((node) => {
      for (const primitive of node.getMesh()?.listPrimitives() ?? []) {
        if (primitive.getMode() !== TRIANGLES) continue;
        const indices = primitive.getIndices();
        triangles += Math.floor((indices ? indices.getCount() : (primitive.getAttribute("POSITION")?.getCount() ?? 0)) / 3);
      }
    });
  }
  return triangles;
}

/** Core glTF geometry: instances as nodes, attributes as floats, triangle lists in one buffer; no extension left but the kept ones. */
async function decodeGeometry(document: Document) {
  await document.transform(uninstance(), dequantize(), unpartition());
  for (const mesh of document.getRoot().listMeshes()) {
    for (const primitive of mesh.listPrimitives()) {
      const mode = primitive.getMode();
      if (mode === TRIANGLE_STRIP || mode === TRIANGLE_FAN) convertPrimitiveToTriangles(primitive);
    }
  }
  await document.transform(weld(), prune());
  for (const extension of document.getRoot().listExtensionsUsed()) {
    if (!KEPT_EXTENSIONS.has(extension.extensionName)) extension.dispose();
  }
}

async function simplifyTo(document: Document, maxTriangles: number) {
  // The simplifier stops at its error bound before the ratio: the bound is widened until the budget is met.
  for (const error of [0.001, 0.01, 0.05, 0.2, 1]) {
    const triangles = countTriangles(document);
    if (triangles <= maxTriangles) return;
    await document.transform(simplify({ simplifier: MeshoptSimplifier, ratio: (maxTriangles / triangles) * 0.98, error, lockBorder: false }));
  }
}

/** A texture to re-encode: its original image (each size step starts from it) and whether it must keep alpha. */
interface Source {
  texture: Texture;
  image: Uint8Array;
  alpha: boolean;
}

/** Whether a blended or masked material reads this texture's alpha (its base colour). */
function alphaIsUsed(document: Document, texture: Texture): boolean {
  return document
    .getRoot()
    .listMaterials()
    .some((material) => material.getAlphaMode() !== "OPAQUE" && material.getBaseColorTexture() === texture);
}

async function textureSources(document: Document): Promise<Source[]> {
  const sources: Source[] = [];
  for (const texture of document.getRoot().listTextures()) {
    const image = texture.getImage();
    if (!image) continue;
    let opaque: boolean;
    try {
      opaque = (await sharp(image).stats()).isOpaque; // decodes the whole image: a broken one fails here
    } catch {
      throw new ShopifyGlbError(
        `The model has a texture (${texture.getMimeType() || "unknown format"}) that cannot be converted for Shopify; export it with PNG or JPEG textures.`,
      );
    }
    sources.push({ texture, image, alpha: !opaque && alphaIsUsed(document, texture) });
  }
  return sources;
}

async function encodeTextures(sources: Source[], step: { size: number; quality: number }) {
  for (const { texture, image, alpha } of sources) {
    const resized = sharp(image).resize({ width: step.size, height: step.size, fit: "inside", withoutEnlargement: true });
    // An opaque material ignores alpha: the colour is kept as it is (not composited on a background).
    const bytes = alpha ? await resized.png({ compressionLevel: 9 }).toBuffer() : await resized.removeAlpha().jpeg({ quality: step.quality, mozjpeg: true }).toBuffer();
    texture.setImage(new Uint8Array(bytes)).setMimeType(alpha ? "image/png" : "image/jpeg");
  }
}

function describeBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`;
}

/**
 * The Shopify-ready GLB of `glb`, with what changed. Throws ShopifyGlbError (its message is for the merchant)
 * when the input is not a readable GLB or cannot be brought within the limits.
 */
export async function shopifyReadyGlb(
  glb: Uint8Array,
  options: { maxBytes?: number; maxTriangles?: number } = {},
): Promise<{ glb: Uint8Array; report: ShopifyGlbReport }> {
  const maxBytes = options.maxBytes ?? SHOPIFY_GLB_MAX_BYTES;
  const maxTriangles = options.maxTriangles ?? SHOPIFY_GLB_MAX_TRIANGLES;
  const document = await read(glb);
  await decodeGeometry(document);
  const inputTriangles = countTriangles(document);
  if (inputTriangles === 0) throw new ShopifyGlbError("The model has no triangles to show.");
  await simplifyTo(document, maxTriangles);
  if (countTriangles(document) > maxTriangles) {
    throw new ShopifyGlbError(`The model has ${inputTriangles.toLocaleString("en")} triangles and cannot be simplified to Shopify's ${maxTriangles.toLocaleString("en")}.`);
  }

  const sources = await textureSources(document);
  const io = await nodeIO();
  let output = new Uint8Array();
  for (const step of sources.length > 0 ? TEXTURE_STEPS : TEXTURE_STEPS.slice(0, 1)) {
    await encodeTextures(sources, step);
    output = await io.writeBinary(document);
    if (output.length <= maxBytes) break;
  }
  // Still too big: fewer triangles, halving until it fits or too little of the model would be left.
  for (let budget = Math.floor(countTriangles(document) / 2); output.length > maxBytes && budget >= MIN_TRIANGLES; budget = Math.floor(budget / 2)) {
    await simplifyTo(document, budget);
    output = await io.writeBinary(document);
  }
  if (output.length > maxBytes) throw new ShopifyGlbError(`The model cannot be made smaller than ${describeBytes(maxBytes)} for Shopify.`);

  const textures = [];
  for (const { texture } of sources) {
    const [width, height] = texture.getSize() ?? [0, 0];
    textures.push({ width, height, mimeType: texture.getMimeType() });
  }
  return {
    glb: output,
    report: {
      inputBytes: glb.length,
      outputBytes: output.length,
      inputTriangles,
      outputTriangles: countTriangles(document),
      textures,
      extensionsUsed: document.getRoot().listExtensionsUsed().map((extension) => extension.extensionName),
    },
  };
}
