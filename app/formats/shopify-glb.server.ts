/**
 * A Shopify-ready GLB (issue 40, docs/decisions/044): the file a product's 3D media gets. Shopify's pipeline
 * (its viewer, the USDZ it makes for iPhone AR, the Shop app) is not trusted with what our web GLBs use —
 * meshopt geometry with quantized attributes, WebP atlases (app/worker/web-glb.server.ts) — nor with Draco or
 * KTX2 from uploads. So the output holds core glTF 2.0 only (KHR_materials_unlit and KHR_texture_transform
 * kept: model-viewer honours both): geometry decoded to floats, textures as JPEG (PNG where a blended or masked
 * material uses alpha) at most 2048 px (Apple's AR guidance). It stays within 500,000 triangles
 * (meshoptimizer's simplifier) and 15 MB: above that Shopify re-optimizes the file itself, out of our control.
 * Over the size, textures shrink first (2048 → 1024 → 512), then JPEG quality, then the mesh is simplified.
 */
import { Logger, NodeIO, type Document, type Texture } from "@gltf-transform/core";
import { ALL_EXTENSIONS } from "@gltf-transform/extensions";
import { dequantize, prune, simplify, weld } from "@gltf-transform/functions";
import type { DecoderModule } from "draco3dgltf";
import { MeshoptDecoder, MeshoptSimplifier } from "meshoptimizer";
import sharp from "sharp";

export const SHOPIFY_GLB_MAX_BYTES = 15 * 1024 * 1024;
export const SHOPIFY_GLB_MAX_TRIANGLES = 500_000;
export const SHOPIFY_GLB_MAX_TEXTURE = 2048;

/** Extensions the output may use; every other one is decoded away or dropped. */
const KEPT_EXTENSIONS = new Set(["KHR_materials_unlit", "KHR_texture_transform"]);
/** Tries in order until the file fits: longest texture side and JPEG quality. */
const TEXTURE_STEPS: Array<{ size: number; quality: number }> = [
  { size: SHOPIFY_GLB_MAX_TEXTURE, quality: 88 },
  { size: 1024, quality: 88 },
  { size: 512, quality: 85 },
  { size: 512, quality: 70 },
];
const DRACO_EXTENSION = "KHR_draco_mesh_compression";

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

let dracoDecoder: Promise<DecoderModule> | null = null;
function draco(): Promise<DecoderModule> {
  dracoDecoder ??= import("draco3dgltf").then((module) => (module.default ?? module).createDecoderModule());
  return dracoDecoder;
}

async function reader(): Promise<NodeIO> {
  await Promise.all([MeshoptDecoder.ready, MeshoptSimplifier.ready]);
  return new NodeIO().setLogger(new Logger(Logger.Verbosity.ERROR)).registerExtensions(ALL_EXTENSIONS).registerDependencies({ "meshopt.decoder": MeshoptDecoder });
}

async function read(glb: Uint8Array): Promise<Document> {
  const io = await reader();
  try {
    const json = await io.binaryToJSON(glb);
    if (json.json.extensionsUsed?.includes(DRACO_EXTENSION)) io.registerDependencies({ "draco3d.decoder": await draco() });
    return await io.readJSON(json);
  } catch (error) {
    throw new ShopifyGlbError(`The model could not be read as a GLB: ${(error as Error).message}`);
  }
}

export function countTriangles(document: Document): number {
  let triangles = 0;
  for (const mesh of document.getRoot().listMeshes()) {
    for (const primitive of mesh.listPrimitives()) {
      if (primitive.getMode() !== 4) continue; // TRIANGLES; strips and fans are rare in our inputs
      const indices = primitive.getIndices();
      triangles += Math.floor((indices ? indices.getCount() : (primitive.getAttribute("POSITION")?.getCount() ?? 0)) / 3);
    }
  }
  return triangles;
}

/** Whether a texture's alpha is used: it is the base colour of a blended or masked material. */
function usesAlpha(document: Document, texture: Texture): boolean {
  return document
    .getRoot()
    .listMaterials()
    .some((material) => material.getBaseColorTexture() === texture && material.getAlphaMode() !== "OPAQUE");
}

/** The decoded source images, kept so that each size step re-encodes from the original. */
type Sources = Map<Texture, Uint8Array>;

async function encodeTextures(document: Document, sources: Sources, step: { size: number; quality: number }) {
  for (const [texture, source] of sources) {
    const resized = sharp(source).resize({ width: step.size, height: step.size, fit: "inside", withoutEnlargement: true });
    const png = usesAlpha(document, texture);
    const bytes = png ? await resized.png({ compressionLevel: 9 }).toBuffer() : await resized.flatten().jpeg({ quality: step.quality, mozjpeg: true }).toBuffer();
    texture.setImage(new Uint8Array(bytes)).setMimeType(png ? "image/png" : "image/jpeg");
  }
}

async function simplifyTo(document: Document, maxTriangles: number) {
  const triangles = countTriangles(document);
  if (triangles <= maxTriangles) return;
  // The simplifier stops at its error bound before the ratio: allow a large error, and retry tighter if needed.
  for (const error of [0.01, 0.05, 0.2, 1]) {
    await document.transform(simplify({ simplifier: MeshoptSimplifier, ratio: (maxTriangles / countTriangles(document)) * 0.98, error, lockBorder: false }));
    if (countTriangles(document) <= maxTriangles) return;
  }
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
  const inputTriangles = countTriangles(document);
  if (inputTriangles === 0) throw new ShopifyGlbError("The model has no triangles to show.");

  // Geometry to plain floats; compression extensions off (their data is decoded already).
  await document.transform(dequantize(), weld(), prune());
  for (const extension of document.getRoot().listExtensionsUsed()) {
    if (!KEPT_EXTENSIONS.has(extension.extensionName)) extension.dispose();
  }
  await simplifyTo(document, maxTriangles);

  const sources: Sources = new Map();
  for (const texture of document.getRoot().listTextures()) {
    const image = texture.getImage();
    if (!image) continue;
    try {
      // Decoded once to PNG, whatever it was (WebP, KTX2 is refused by sharp and dropped below).
      sources.set(texture, new Uint8Array(await sharp(image).png().toBuffer()));
    } catch {
      texture.dispose();
    }
  }

  const io = await reader();
  let output: Uint8Array | null = null;
  for (const step of TEXTURE_STEPS) {
    await encodeTextures(document, sources, step);
    output = await io.writeBinary(document);
    if (output.length <= maxBytes) break;
  }
  // Still too big: fewer triangles, halving until it fits or there is nothing sensible left.
  for (let budget = countTriangles(document) / 2; output!.length > maxBytes && budget >= 1_000; budget /= 2) {
    await simplifyTo(document, Math.floor(budget));
    output = await io.writeBinary(document);
  }
  if (output!.length > maxBytes) {
    const limit = maxBytes >= 1024 * 1024 ? `${(maxBytes / 1024 / 1024).toFixed(1)} MB` : `${Math.round(maxBytes / 1024)} KB`;
    throw new ShopifyGlbError(`The model cannot be made smaller than ${limit} for Shopify.`);
  }

  const textures = [];
  for (const texture of document.getRoot().listTextures()) {
    const meta = await sharp(texture.getImage()!).metadata();
    textures.push({ width: meta.width ?? 0, height: meta.height ?? 0, mimeType: texture.getMimeType() });
  }
  return {
    glb: output!,
    report: {
      inputBytes: glb.length,
      outputBytes: output!.length,
      inputTriangles,
      outputTriangles: countTriangles(document),
      textures,
      extensionsUsed: document.getRoot().listExtensionsUsed().map((extension) => extension.extensionName),
    },
  };
}
