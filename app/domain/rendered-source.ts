import { isModelFormat, type ModelFormat } from "~/formats/model-format";

/**
 * The file the viewer shows for an item, which its thumbnail and turntable are rendered from: a mesh item's GLB,
 * else its model file. Pure (the API's presenters use it too).
 */
export function thumbnailSource(item: { modelType: string; fileKey: string | null; fileFormat: string | null; meshKey: string | null }): { key: string; format: ModelFormat } | null {
  if (item.modelType === "glb" && item.meshKey) return { key: item.meshKey, format: "glb" };
  if (item.fileKey && isModelFormat(item.fileFormat)) return { key: item.fileKey, format: item.fileFormat };
  return null;
}
