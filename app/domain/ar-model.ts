/**
 * Which file a model is placed in a room from, and the name of the AR files made of it (issue 35 item 1,
 * docs/decisions/054). Pure: the item presenter offers the links, app/domain/ar-model.server.ts makes and serves
 * the files. A scan is placed from its light textured mesh (≤ 50k triangles, made for this), an uploaded GLB from
 * itself; a splat without a mesh has nothing AR viewers can show.
 */
export const AR_FILES = {
  usdz: { name: "model.usdz", type: "model/vnd.usdz+zip" },
  glb: { name: "model.glb", type: "model/gltf-binary" },
} as const;
export type ArFile = keyof typeof AR_FILES;

/** Bumped when the files made from the same mesh would differ (a new converter): old copies are then remade. */
const AR_FORMAT_VERSION = 1;

interface ArSourceFields {
  kind: string;
  status: string;
  fileFormat: string | null;
  fileKey: string | null;
  meshKey: string | null;
  meshLiteKey: string | null;
}

/** The mesh of an item, if it has one: a scan's textured mesh, or an uploaded GLB. Splats alone have none. */
export function meshKeyOf(item: { fileFormat: string | null; fileKey: string | null; meshKey: string | null }): string | null {
  if (item.meshKey) return item.meshKey;
  return item.fileFormat === "glb" && item.fileKey ? item.fileKey : null;
}

/** The stored mesh AR places for this item (a scan's light level before its full mesh), or null. */
export function arSourceKey(item: ArSourceFields): string | null {
  if (item.kind !== "model" || item.status !== "ready") return null;
  return item.meshLiteKey ?? meshKeyOf(item);
}

/** FNV-1a, 2 × 32 bits: a stable name for what the files were made from (not a security measure). */
function fingerprint(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return a.toString(16).padStart(8, "0") + b.toString(16).padStart(8, "0");
}

/** The version of the AR files of `sourceKey` at this real-world scale: their folder's name and the links' ?v=. */
export function arFilesVersion(sourceKey: string, metersPerUnit: number | null): string {
  return fingerprint(`${AR_FORMAT_VERSION}|${sourceKey}|${metersPerUnit ?? 1}`);
}

/** The item's AR links for the API (null when it has nothing to place). */
export function presentArLinks(item: ArSourceFields & { id: string }, metersPerUnit: number | null): { usdz_url: string; glb_url: string } | null {
  const source = arSourceKey(item);
  if (!source) return null;
  const version = arFilesVersion(source, metersPerUnit);
  return { usdz_url: `/v1/item/${item.id}/ar/usdz?v=${version}`, glb_url: `/v1/item/${item.id}/ar/glb?v=${version}` };
}
