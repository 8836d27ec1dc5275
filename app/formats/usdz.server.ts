/**
 * A USDZ of a glTF document, for AR Quick Look on iPhone and iPad (issue 35 item 1, docs/decisions/054): made on the
 * server from the core-glTF copy of a model (formats/shopify-glb.server.ts: triangle lists, float attributes, JPEG
 * or PNG textures), so a visitor's phone downloads one file and decodes nothing. The layout follows Pixar's USDZ
 * specification and Apple's AR Quick Look guidance:
 * - one ASCII layer (`model.usda`) first in an uncompressed zip whose entries start at multiples of 64 bytes,
 *   the textures beside it as they are in the GLB (JPEG or PNG, both of which Quick Look reads);
 * - Y up and one unit a metre, like glTF: the caller scales the document to real-world size first;
 * - every mesh node flattened into the default prim with its world transform applied (points, and normals by the
 *   inverse transpose), so no transform is left for a reader to get wrong;
 * - glTF's metallic-roughness material as UsdPreviewSurface: base colour (factor × texture, its alpha as opacity
 *   for blended and masked materials), metallic and roughness (the texture's blue and green channels), normal
 *   map, occlusion, emission; an unlit material (KHR_materials_unlit) shows its colour as emission on black.
 *   Texture transforms (KHR_texture_transform) and second UV sets are not carried.
 */
import type { Document, Material, Primitive, Texture } from "@gltf-transform/core";
import { writeStoredZip, type ZipFile } from "./zip-writer";

const TRIANGLES = 4;
/** USDZ's alignment of each file's data. */
const USDZ_ALIGNMENT = 64;
export const USDZ_ROOT_LAYER = "model.usda";

type Vec3 = [number, number, number];

/** A number as USDA writes it: up to 7 significant digits, no exponent surprises for a reader (-0 as 0). */
function num(value: number): string {
  if (!Number.isFinite(value)) return "0";
  const rounded = Number(value.toPrecision(7));
  return Object.is(rounded, -0) ? "0" : String(rounded);
}

function tuple(values: ArrayLike<number>): string {
  return `(${Array.from(values, num).join(", ")})`;
}

/** A USD prim name from any text: letters, digits and underscores, not starting with a digit. */
function primName(text: string, fallback: string): string {
  const name = text.replace(/[^A-Za-z0-9_]/g, "_").replace(/^_+|_+$/g, "");
  if (!name) return fallback;
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

function applyPoint(m: number[], x: number, y: number, z: number): Vec3 {
  return [m[0] * x + m[4] * y + m[8] * z + m[12], m[1] * x + m[5] * y + m[9] * z + m[13], m[2] * x + m[6] * y + m[10] * z + m[14]];
}

/** The inverse transpose of a column-major 4×4's upper 3×3 (row-major 3×3 out), and its determinant. */
function normalMatrix(m: number[]): { n: number[]; det: number } {
  const [a, b, c, d, e, f, g, h, i] = [m[0], m[4], m[8], m[1], m[5], m[9], m[2], m[6], m[10]]; // row-major 3×3
  const det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
  const k = det === 0 ? 0 : 1 / det;
  // inverse transpose = cofactor matrix / det
  const n = [(e * i - f * h) * k, -(d * i - f * g) * k, (d * h - e * g) * k, -(b * i - c * h) * k, (a * i - c * g) * k, -(a * h - b * g) * k, (b * f - c * e) * k, -(a * f - c * d) * k, (a * e - b * d) * k];
  return { n, det };
}

interface TextureFile {
  path: string;
  data: Uint8Array;
}

class TextureFiles {
  private readonly byTexture = new Map<Texture, TextureFile>();

  pathOf(texture: Texture | null): string | null {
    if (!texture) return null;
    const known = this.byTexture.get(texture);
    if (known) return known.path;
    const data = texture.getImage();
    const mime = texture.getMimeType();
    if (!data || (mime !== "image/jpeg" && mime !== "image/png")) return null;
    const file = { path: `textures/texture_${this.byTexture.size}.${mime === "image/png" ? "png" : "jpg"}`, data };
    this.byTexture.set(texture, file);
    return file.path;
  }

  list(): TextureFile[] {
    return [...this.byTexture.values()];
  }
}

/** One UsdUVTexture shader reading `file` through the material's "st" reader. */
function textureShader(materialPath: string, name: string, file: string, options: { colorSpace: "sRGB" | "raw"; scale?: number[]; bias?: number[]; outputs: string[] }): string {
  const lines = [
    `        def Shader "${name}"`,
    "        {",
    '            uniform token info:id = "UsdUVTexture"',
    `            asset inputs:file = @${file}@`,
    `            float2 inputs:st.connect = <${materialPath}/StReader.outputs:result>`,
    `            token inputs:sourceColorSpace = "${options.colorSpace}"`,
    '            token inputs:wrapS = "repeat"',
    '            token inputs:wrapT = "repeat"',
  ];
  if (options.scale) lines.push(`            float4 inputs:scale = ${tuple(options.scale)}`);
  if (options.bias) lines.push(`            float4 inputs:bias = ${tuple(options.bias)}`);
  for (const output of options.outputs) lines.push(`            ${output === "rgb" ? "float3" : "float"} outputs:${output}`);
  lines.push("        }");
  return lines.join("\n");
}

function materialPrim(material: Material | null, name: string, textures: TextureFiles): string {
  const path = `/Root/Materials/${name}`;
  const shaders: string[] = [];
  const inputs: string[] = [];
  const baseColor = material?.getBaseColorFactor() ?? [1, 1, 1, 1];
  const alphaMode = material?.getAlphaMode() ?? "OPAQUE";
  const unlit = !!material?.getExtension("KHR_materials_unlit");
  const baseTexture = textures.pathOf(material?.getBaseColorTexture() ?? null);
  const colourInput = unlit ? "emissiveColor" : "diffuseColor";
  if (baseTexture) {
    shaders.push(textureShader(path, "BaseColor", baseTexture, { colorSpace: "sRGB", scale: baseColor, outputs: alphaMode === "OPAQUE" ? ["rgb"] : ["rgb", "a"] }));
    inputs.push(`color3f inputs:${colourInput}.connect = <${path}/BaseColor.outputs:rgb>`);
    if (alphaMode !== "OPAQUE") inputs.push(`float inputs:opacity.connect = <${path}/BaseColor.outputs:a>`);
  } else {
    inputs.push(`color3f inputs:${colourInput} = ${tuple(baseColor.slice(0, 3))}`);
    if (alphaMode !== "OPAQUE") inputs.push(`float inputs:opacity = ${num(baseColor[3])}`);
  }
  if (alphaMode === "MASK") inputs.push(`float inputs:opacityThreshold = ${num(material?.getAlphaCutoff() ?? 0.5)}`);
  if (unlit) {
    inputs.push("color3f inputs:diffuseColor = (0, 0, 0)", "float inputs:metallic = 0", "float inputs:roughness = 1");
  } else {
    const metallic = material?.getMetallicFactor() ?? 1;
    const roughness = material?.getRoughnessFactor() ?? 1;
    const mrTexture = textures.pathOf(material?.getMetallicRoughnessTexture() ?? null);
    if (mrTexture) {
      // glTF keeps roughness in green and metalness in blue; one sampler per factor, as each scales its own channel.
      shaders.push(textureShader(path, "Roughness", mrTexture, { colorSpace: "raw", scale: [1, roughness, 1, 1], outputs: ["g"] }));
      shaders.push(textureShader(path, "Metallic", mrTexture, { colorSpace: "raw", scale: [1, 1, metallic, 1], outputs: ["b"] }));
      inputs.push(`float inputs:roughness.connect = <${path}/Roughness.outputs:g>`, `float inputs:metallic.connect = <${path}/Metallic.outputs:b>`);
    } else {
      inputs.push(`float inputs:metallic = ${num(metallic)}`, `float inputs:roughness = ${num(roughness)}`);
    }
    const normalTexture = textures.pathOf(material?.getNormalTexture() ?? null);
    if (normalTexture) {
      const s = material?.getNormalScale() ?? 1;
      shaders.push(textureShader(path, "Normal", normalTexture, { colorSpace: "raw", scale: [2 * s, 2 * s, 2, 1], bias: [-s, -s, -1, 0], outputs: ["rgb"] }));
      inputs.push(`normal3f inputs:normal.connect = <${path}/Normal.outputs:rgb>`);
    }
    const occlusionTexture = textures.pathOf(material?.getOcclusionTexture() ?? null);
    if (occlusionTexture) {
      shaders.push(textureShader(path, "Occlusion", occlusionTexture, { colorSpace: "raw", outputs: ["r"] }));
      inputs.push(`float inputs:occlusion.connect = <${path}/Occlusion.outputs:r>`);
    }
    const emissive = material?.getEmissiveFactor() ?? [0, 0, 0];
    const emissiveTexture = textures.pathOf(material?.getEmissiveTexture() ?? null);
    if (emissiveTexture) {
      shaders.push(textureShader(path, "Emissive", emissiveTexture, { colorSpace: "sRGB", scale: [...emissive, 1], outputs: ["rgb"] }));
      inputs.push(`color3f inputs:emissiveColor.connect = <${path}/Emissive.outputs:rgb>`);
    } else if (emissive.some((v) => v > 0)) {
      inputs.push(`color3f inputs:emissiveColor = ${tuple(emissive)}`);
    }
  }
  return [
    `    def Material "${name}"`,
    "    {",
    `        token outputs:surface.connect = <${path}/Surface.outputs:surface>`,
    '        def Shader "Surface"',
    "        {",
    '            uniform token info:id = "UsdPreviewSurface"',
    ...inputs.map((input) => `            ${input}`),
    "            int inputs:useSpecularWorkflow = 0",
    "            token outputs:surface",
    "        }",
    '        def Shader "StReader"',
    "        {",
    '            uniform token info:id = "UsdPrimvarReader_float2"',
    '            string inputs:varname = "st"',
    "            float2 outputs:result",
    "        }",
    ...shaders,
    "    }",
  ].join("\n");
}

/** One triangle primitive as a Mesh prim, in world space; null when it has no triangles to show. */
function meshPrim(primitive: Primitive, world: number[], name: string, materialName: string, doubleSided: boolean): string | null {
  if (primitive.getMode() !== TRIANGLES) return null;
  const position = primitive.getAttribute("POSITION");
  if (!position || position.getCount() === 0) return null;
  const count = position.getCount();
  const indexAccessor = primitive.getIndices();
  const indices = indexAccessor ? Array.from(indexAccessor.getArray() ?? []) : Array.from({ length: count }, (_, i) => i);
  const triangleCount = Math.floor(indices.length / 3);
  if (triangleCount === 0) return null;
  const { n, det } = normalMatrix(world);
  // A mirroring transform turns the winding over: the triangles are written the other way round to stay front-facing.
  if (det < 0) for (let t = 0; t < triangleCount; t++) [indices[3 * t + 1], indices[3 * t + 2]] = [indices[3 * t + 2], indices[3 * t + 1]];

  const points: string[] = [];
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  const p: number[] = [0, 0, 0];
  for (let i = 0; i < count; i++) {
    position.getElement(i, p);
    const q = applyPoint(world, p[0], p[1], p[2]);
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k], q[k]);
      max[k] = Math.max(max[k], q[k]);
    }
    points.push(tuple(q));
  }
  const lines = [
    `    def Mesh "${name}" (`,
    '        prepend apiSchemas = ["MaterialBindingAPI"]',
    "    )",
    "    {",
    `        uniform bool doubleSided = ${doubleSided ? 1 : 0}`,
    `        float3[] extent = [${tuple(min)}, ${tuple(max)}]`,
    `        int[] faceVertexCounts = [${new Array(triangleCount).fill(3).join(", ")}]`,
    `        int[] faceVertexIndices = [${indices.slice(0, triangleCount * 3).join(", ")}]`,
    `        rel material:binding = </Root/Materials/${materialName}>`,
    `        point3f[] points = [${points.join(", ")}]`,
  ];
  const normal = primitive.getAttribute("NORMAL");
  if (normal) {
    const normals: string[] = [];
    for (let i = 0; i < count; i++) {
      normal.getElement(i, p);
      const x = n[0] * p[0] + n[1] * p[1] + n[2] * p[2];
      const y = n[3] * p[0] + n[4] * p[1] + n[5] * p[2];
      const z = n[6] * p[0] + n[7] * p[1] + n[8] * p[2];
      const length = Math.hypot(x, y, z) || 1;
      normals.push(tuple([x / length, y / length, z / length]));
    }
    lines.push(`        normal3f[] normals = [${normals.join(", ")}] (`, '            interpolation = "vertex"', "        )");
  }
  const uv = primitive.getAttribute("TEXCOORD_0");
  if (uv) {
    const st: string[] = [];
    const t: number[] = [0, 0];
    // glTF's v runs down the image, USD's t up it.
    for (let i = 0; i < count; i++) st.push(tuple([uv.getElement(i, t)[0], 1 - t[1]]));
    lines.push(`        texCoord2f[] primvars:st = [${st.join(", ")}] (`, '            interpolation = "vertex"', "        )");
  }
  lines.push('        uniform token subdivisionScheme = "none"', "    }");
  return lines.join("\n");
}

/** The USDA layer and its textures for `document`'s default scene (or its first). */
export function usdaOf(document: Document): { usda: string; textures: TextureFile[] } {
  const root = document.getRoot();
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  const textures = new TextureFiles();
  const materials = new Map<Material | null, string>();
  const meshes: string[] = [];
  const usedNames = new Set<string>();
  const uniqueName = (wanted: string) => {
    let name = wanted;
    for (let i = 1; usedNames.has(name); i++) name = `${wanted}_${i}`;
    usedNames.add(name);
    return name;
  };
  scene?.traverse((node) => {
    const mesh = node.getMesh();
    if (!mesh) return;
    const world = node.getWorldMatrix() as unknown as number[];
    mesh.listPrimitives().forEach((primitive, index) => {
      const material = primitive.getMaterial();
      let materialName = materials.get(material);
      if (!materialName) {
        materialName = uniqueName(`Material_${primName(material?.getName() ?? "", String(materials.size))}`);
        materials.set(material, materialName);
      }
      const prim = meshPrim(primitive, world, uniqueName(primName(`${node.getName() || mesh.getName() || "Mesh"}_${index}`, `Mesh_${meshes.length}`)), materialName, !!material?.getDoubleSided());
      if (prim) meshes.push(prim);
    });
  });
  const materialPrims = [...materials.entries()].map(([material, name]) => materialPrim(material, name, textures));
  const usda = [
    "#usda 1.0",
    "(",
    '    customLayerData = {',
    '        string creator = "Scanroom"',
    "    }",
    '    defaultPrim = "Root"',
    "    metersPerUnit = 1",
    '    upAxis = "Y"',
    ")",
    "",
    'def Xform "Root" (',
    '    kind = "component"',
    ")",
    "{",
    ...meshes,
    '    def Scope "Materials"',
    "    {",
    ...materialPrims.map((prim) => prim.replace(/^ {4}/gm, "        ")),
    "    }",
    "}",
    "",
  ].join("\n");
  return { usda, textures: textures.list() };
}

/** The USDZ package of `document` (see the module's comment). */
export function usdzOf(document: Document): Uint8Array {
  const { usda, textures } = usdaOf(document);
  const files: ZipFile[] = [{ name: USDZ_ROOT_LAYER, data: new TextEncoder().encode(usda) }, ...textures.map((file) => ({ name: file.path, data: file.data }))];
  return writeStoredZip(files, { align: USDZ_ALIGNMENT });
}
