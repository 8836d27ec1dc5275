/** A decoded mesh model, flattened into the world frame, as the software renderer draws it. */
import type { Bounds } from "~/viewer/bounds";

export interface MeshTexture {
  width: number;
  height: number;
  /** Linear RGBA, 4 floats a texel, rows top to bottom (glTF's UV origin is the image's top left). */
  texels: Float32Array;
  wrapS: TextureWrap;
  wrapT: TextureWrap;
}

export type TextureWrap = "repeat" | "clamp" | "mirror";

export interface MeshMaterial {
  /** Base colour factor, linear RGBA. */
  color: [number, number, number, number];
  texture: MeshTexture | null;
  /** KHR_materials_unlit: the colour as it is (baked scans). */
  unlit: boolean;
  doubleSided: boolean;
  alphaMode: "OPAQUE" | "MASK" | "BLEND";
  alphaCutoff: number;
}

export interface MeshPrimitive {
  /** World-space positions, 3 floats a vertex. */
  positions: Float32Array;
  /** World-space unit normals, or null (faces are then shaded flat). */
  normals: Float32Array | null;
  uvs: Float32Array | null;
  /** Linear RGBA vertex colours, 4 floats a vertex, or null. */
  colors: Float32Array | null;
  /** Triangle list. */
  indices: Uint32Array;
  /** The node transform mirrors (negative determinant): front faces wind the other way. */
  mirrored: boolean;
  material: MeshMaterial;
}

export interface MeshScene {
  primitives: MeshPrimitive[];
  /** The world-space box around every vertex (what the viewer frames: three's Box3.setFromObject, precise). */
  bounds: Bounds;
  triangles: number;
}

export function triangleCount(primitives: MeshPrimitive[]): number {
  return primitives.reduce((sum, p) => sum + p.indices.length / 3, 0);
}
