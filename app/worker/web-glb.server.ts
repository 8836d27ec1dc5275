// The textured scan mesh made web-ready (issue 14): the GLB that sr-texture's output becomes is checked
// uncompressed (our own reader and Khronos' validator), then its geometry is compressed with meshopt
// (EXT_meshopt_compression, quantized positions and UVs) and its atlas re-encoded as WebP
// (EXT_texture_webp). The viewer decodes both (three's GLTFLoader with MeshoptDecoder; browsers decode
// WebP). Normals are dropped: the material is unlit (a baked scan already holds its lighting).
import { Logger, NodeIO, type Document } from "@gltf-transform/core";
import { ALL_EXTENSIONS, EXTTextureWebP } from "@gltf-transform/extensions";
import { meshopt, prune, weld } from "@gltf-transform/functions";
import { MeshoptDecoder, MeshoptEncoder } from "meshoptimizer";
import sharp from "sharp";

/** WebP quality of the atlas (0–100): at 90 the atlas's colour error stays well below the texture's own. */
const WEBP_QUALITY = 90;
/**
 * Bits for UVs: on a ≤ 4096² atlas of photo patches copied pixel for pixel, 12 bits (glTF-Transform's default)
 * would move a corner by up to a texel, shifting the photo under it; 16 bits keep it at 1/16 of a texel.
 */
const UV_BITS = 16;
/** Position bits: 14 keep the error under 1/16,000 of the model's size (0.06 mm on a 1 m object). */
const POSITION_BITS = 14;

async function io(): Promise<NodeIO> {
  await Promise.all([MeshoptEncoder.ready, MeshoptDecoder.ready]);
  // Warnings and errors only: the transforms' progress lines are not the worker's log.
  return new NodeIO().setLogger(new Logger(Logger.Verbosity.WARN)).registerExtensions(ALL_EXTENSIONS).registerDependencies({
    "meshopt.encoder": MeshoptEncoder,
    "meshopt.decoder": MeshoptDecoder,
  });
}

async function reencodeTexturesAsWebp(document: Document) {
  for (const texture of document.getRoot().listTextures()) {
    const image = texture.getImage();
    if (!image) continue;
    const webp = await sharp(image).webp({ quality: WEBP_QUALITY, effort: 4 }).toBuffer();
    texture.setImage(new Uint8Array(webp)).setMimeType("image/webp");
  }
  document.createExtension(EXTTextureWebP).setRequired(true);
}

/** The compressed GLB. Throws when the input cannot be read. */
export async function compressGlbForWeb(glb: Uint8Array): Promise<Uint8Array> {
  const reader = await io();
  const document = await reader.readBinary(glb);
  for (const mesh of document.getRoot().listMeshes()) {
    for (const primitive of mesh.listPrimitives()) primitive.setAttribute("NORMAL", null);
  }
  await reencodeTexturesAsWebp(document);
  await document.transform(
    prune(),
    weld(),
    meshopt({ encoder: MeshoptEncoder, level: "medium", quantizePosition: POSITION_BITS, quantizeTexcoord: UV_BITS }),
  );
  return reader.writeBinary(document);
}

export interface WebGlbSummary {
  vertices: number;
  triangles: number;
  /** Width and height of each texture, decoded. */
  textures: Array<[number, number]>;
  extensions: string[];
}

/** Decodes a (possibly meshopt-compressed, WebP-textured) GLB and counts what it holds. */
export async function summarizeWebGlb(glb: Uint8Array): Promise<WebGlbSummary> {
  const document = await (await io()).readBinary(glb);
  let vertices = 0;
  let triangles = 0;
  for (const mesh of document.getRoot().listMeshes()) {
    for (const primitive of mesh.listPrimitives()) {
      const position = primitive.getAttribute("POSITION");
      if (!position) throw new Error("a primitive has no positions");
      const array = position.getArray();
      if (!array || ![...array].every(Number.isFinite)) throw new Error("non-finite vertex positions");
      vertices += position.getCount();
      const indices = primitive.getIndices();
      triangles += (indices ? indices.getCount() : position.getCount()) / 3;
    }
  }
  const textures: Array<[number, number]> = [];
  for (const texture of document.getRoot().listTextures()) {
    const image = texture.getImage();
    if (!image) continue;
    const meta = await sharp(image).metadata();
    if (!meta.width || !meta.height) throw new Error("a texture could not be decoded");
    textures.push([meta.width, meta.height]);
  }
  return { vertices, triangles, textures, extensions: document.getRoot().listExtensionsUsed().map((e) => e.extensionName) };
}
