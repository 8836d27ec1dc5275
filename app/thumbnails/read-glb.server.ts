/**
 * Decodes a GLB for the mesh renderer with glTF-Transform: meshopt- and Draco-compressed geometry (the
 * decoders from `meshoptimizer` and `draco3dgltf`, Draco's loaded only for a file that uses it), quantized
 * attributes, node transforms applied into the world frame; base-colour
 * images (PNG, JPEG, WebP) decoded by sharp. Like three's GLTFLoader, it draws the default scene.
 * A texture that cannot be decoded (e.g. KTX2) leaves its material's colour factor, with a logged warning.
 */
import { Logger, NodeIO, type Accessor, type Document, type Material, type Node, type Primitive, type Texture } from "@gltf-transform/core";
import { ALL_EXTENSIONS } from "@gltf-transform/extensions";
import { MeshoptDecoder } from "meshoptimizer";
import sharp from "sharp";
import { readGlbDocument } from "~/formats/glb-document.server";
import { Matrix3, Matrix4, Vector3 } from "three";
import { logger } from "~/lib/logger.server";
import type { Bounds } from "~/viewer/bounds";
import { SRGB8_TO_LINEAR } from "./color";
import { triangleCount, type MeshMaterial, type MeshPrimitive, type MeshScene, type MeshTexture, type TextureWrap } from "./mesh-scene";

/** Textures are read at most this big (a thumbnail never shows more texels; this also stands in for mipmaps). */
export const MAX_TEXTURE_SIZE = 1024;

export class GlbDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GlbDecodeError";
  }
}

async function readDocument(bytes: Uint8Array): Promise<Document> {
  await MeshoptDecoder.ready;
  const io = new NodeIO().setLogger(new Logger(Logger.Verbosity.ERROR)).registerExtensions(ALL_EXTENSIONS).registerDependencies({ "meshopt.decoder": MeshoptDecoder });
  return readGlbDocument(io, bytes);
}

/** `maxTextureSize`: textures are scaled down to fit it (MAX_TEXTURE_SIZE for thumbnails; a scan's evaluation reads its whole atlas). */
export async function readGlbScene(bytes: Uint8Array, options: { maxTextureSize?: number } = {}): Promise<MeshScene> {
  const maxTextureSize = options.maxTextureSize ?? MAX_TEXTURE_SIZE;
  let document: Document;
  try {
    document = await readDocument(bytes);
  } catch (error) {
    throw new GlbDecodeError(`the GLB could not be read: ${(error as Error).message}`);
  }
  const root = document.getRoot();
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  if (!scene) throw new GlbDecodeError("the GLB contains no scene");
  const textures = new Map<Texture, Promise<MeshTexture | null>>();
  const primitives: MeshPrimitive[] = [];
  const pending: Array<Promise<void>> = [];
  scene.traverse((node) => {
    const mesh = node.getMesh();
    if (!mesh) return;
    for (const primitive of mesh.listPrimitives()) {
      const flattened = flattenPrimitive(node, primitive);
      if (!flattened) continue;
      pending.push(
        readMaterial(primitive.getMaterial(), textures, maxTextureSize).then((material) => {
          primitives.push({ ...flattened, material });
        }),
      );
    }
  });
  await Promise.all(pending);
  const bounds = boundsOf(primitives);
  if (!bounds) throw new GlbDecodeError("the GLB contains no visible geometry");
  return { primitives, bounds, triangles: triangleCount(primitives) };
}

const TRIANGLES = 4;
const TRIANGLE_STRIP = 5;
const TRIANGLE_FAN = 6;

/** Positions and normals in the world frame, UVs (set 0), vertex colours and a triangle list. Null for points and lines. */
function flattenPrimitive(node: Node, primitive: Primitive): Omit<MeshPrimitive, "material"> | null {
  const mode = primitive.getMode();
  if (mode !== TRIANGLES && mode !== TRIANGLE_STRIP && mode !== TRIANGLE_FAN) return null;
  const position = primitive.getAttribute("POSITION");
  if (!position) return null;
  const count = position.getCount();
  const world = new Matrix4().fromArray(node.getWorldMatrix());
  const positions = readFloats(position, 3);
  const p = new Vector3();
  for (let i = 0; i < count; i++) {
    p.fromArray(positions, i * 3).applyMatrix4(world).toArray(positions, i * 3);
  }
  const normalAttribute = primitive.getAttribute("NORMAL");
  let normals: Float32Array | null = null;
  if (normalAttribute) {
    normals = readFloats(normalAttribute, 3);
    const normalMatrix = new Matrix3().getNormalMatrix(world);
    for (let i = 0; i < count; i++) p.fromArray(normals, i * 3).applyMatrix3(normalMatrix).normalize().toArray(normals, i * 3);
  }
  const uvAttribute = primitive.getAttribute("TEXCOORD_0");
  const colorAttribute = primitive.getAttribute("COLOR_0");
  let colors: Float32Array | null = null;
  if (colorAttribute) {
    const size = colorAttribute.getElementSize();
    const raw = readFloats(colorAttribute, size);
    colors = new Float32Array(count * 4);
    for (let i = 0; i < count; i++) {
      for (let k = 0; k < 3; k++) colors[i * 4 + k] = raw[i * size + k];
      colors[i * 4 + 3] = size === 4 ? raw[i * size + 3] : 1;
    }
  }
  const source = primitive.getIndices()?.getArray() ?? Uint32Array.from({ length: count }, (_, i) => i);
  return {
    positions,
    normals,
    uvs: uvAttribute ? readFloats(uvAttribute, 2) : null,
    colors,
    indices: triangleList(source, mode),
    mirrored: world.determinant() < 0,
  };
}

function triangleList(source: ArrayLike<number>, mode: number): Uint32Array {
  if (mode === TRIANGLES) return Uint32Array.from(source).subarray(0, source.length - (source.length % 3));
  const triangles = Math.max(0, source.length - 2);
  const out = new Uint32Array(triangles * 3);
  for (let i = 0; i < triangles; i++) {
    if (mode === TRIANGLE_FAN) out.set([source[0], source[i + 1], source[i + 2]], i * 3);
    else if (i % 2 === 0) out.set([source[i], source[i + 1], source[i + 2]], i * 3);
    else out.set([source[i + 1], source[i], source[i + 2]], i * 3);
  }
  return out;
}

/** An accessor's values as floats, normalized integers (quantized attributes) mapped to their float range. */
function readFloats(accessor: Accessor, size: number): Float32Array {
  const array = accessor.getArray();
  const count = accessor.getCount();
  const out = new Float32Array(count * size);
  if (!array) return out;
  const elementSize = accessor.getElementSize();
  let scale = 1;
  let min = -Infinity;
  if (accessor.getNormalized()) {
    if (array instanceof Int8Array) [scale, min] = [1 / 127, -1];
    else if (array instanceof Uint8Array) scale = 1 / 255;
    else if (array instanceof Int16Array) [scale, min] = [1 / 32767, -1];
    else if (array instanceof Uint16Array) scale = 1 / 65535;
  }
  for (let i = 0; i < count; i++) {
    for (let k = 0; k < size && k < elementSize; k++) out[i * size + k] = Math.max(min, array[i * elementSize + k] * scale);
  }
  return out;
}

const WRAPS: Record<number, TextureWrap> = { 10497: "repeat", 33071: "clamp", 33648: "mirror" };

async function readMaterial(material: Material | null, textures: Map<Texture, Promise<MeshTexture | null>>, maxTextureSize: number): Promise<MeshMaterial> {
  if (!material) return { color: [1, 1, 1, 1], texture: null, unlit: false, doubleSided: false, alphaMode: "OPAQUE", alphaCutoff: 0.5 };
  const factor = material.getBaseColorFactor();
  const source = material.getBaseColorTexture();
  const info = material.getBaseColorTextureInfo();
  let texture: MeshTexture | null = null;
  if (source && (info?.getTexCoord() ?? 0) === 0) {
    if (!textures.has(source)) textures.set(source, decodeTexture(source, maxTextureSize));
    const decoded = await textures.get(source)!;
    if (decoded) texture = { ...decoded, wrapS: WRAPS[info?.getWrapS() ?? 10497] ?? "repeat", wrapT: WRAPS[info?.getWrapT() ?? 10497] ?? "repeat" };
  }
  return {
    color: [factor[0], factor[1], factor[2], factor[3]],
    texture,
    unlit: !!material.getExtension("KHR_materials_unlit"),
    doubleSided: material.getDoubleSided(),
    alphaMode: material.getAlphaMode(),
    alphaCutoff: material.getAlphaCutoff(),
  };
}

async function decodeTexture(texture: Texture, maxTextureSize: number): Promise<MeshTexture | null> {
  const image = texture.getImage();
  if (!image) return null;
  try {
    const { data, info } = await sharp(image)
      .ensureAlpha()
      .resize({ width: maxTextureSize, height: maxTextureSize, fit: "inside", withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const texels = new Float32Array(info.width * info.height * 4);
    for (let i = 0; i < texels.length; i++) texels[i] = (i & 3) === 3 ? data[i] / 255 : SRGB8_TO_LINEAR[data[i]];
    return { width: info.width, height: info.height, texels, wrapS: "repeat", wrapT: "repeat" };
  } catch (error) {
    logger.warn("a model texture could not be decoded; its colour factor is used", { mimeType: texture.getMimeType(), error: (error as Error).message });
    return null;
  }
}

function boundsOf(primitives: MeshPrimitive[]): Bounds | null {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (const { positions, indices } of primitives) {
    // Vertices that a triangle uses (three's precise Box3 counts every vertex of the geometry; indexed glTF rarely holds strays).
    for (let i = 0; i < indices.length; i++) {
      const v = indices[i] * 3;
      for (let k = 0; k < 3; k++) {
        const value = positions[v + k];
        if (!Number.isFinite(value)) continue;
        if (value < min[k]) min[k] = value;
        if (value > max[k]) max[k] = value;
      }
    }
  }
  if (!(min[0] <= max[0] && min[1] <= max[1] && min[2] <= max[2])) return null;
  return { min: min as Bounds["min"], max: max as Bounds["max"] };
}
