import type { Material, Object3D, Texture } from "three";

function isTexture(value: unknown): value is Texture {
  return !!value && typeof value === "object" && (value as Texture).isTexture === true;
}

function disposeTexture(texture: Texture): void {
  texture.dispose();
  const image: unknown = texture.source?.data;
  if (typeof ImageBitmap !== "undefined" && image instanceof ImageBitmap) image.close();
}

/** Disposes every geometry, material and texture under `root` (each once). */
export function disposeObject3D(root: Object3D): void {
  const materials = new Set<Material>();
  const textures = new Set<Texture>();
  root.traverse((node) => {
    const mesh = node as Object3D & { geometry?: { dispose(): void }; material?: Material | Material[] };
    mesh.geometry?.dispose();
    const list = Array.isArray(mesh.material) ? mesh.material : mesh.material ? [mesh.material] : [];
    for (const material of list) materials.add(material);
  });
  for (const material of materials) {
    for (const value of Object.values(material)) {
      if (isTexture(value)) textures.add(value);
    }
    const uniforms = (material as Material & { uniforms?: Record<string, { value: unknown }> }).uniforms;
    if (uniforms) {
      for (const uniform of Object.values(uniforms)) {
        if (isTexture(uniform?.value)) textures.add(uniform.value);
      }
    }
    material.dispose();
  }
  for (const texture of textures) disposeTexture(texture);
}
