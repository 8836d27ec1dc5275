/**
 * The files a phone places in a room (issue 35 item 1, docs/decisions/054): a GLB for Android's Scene Viewer and a
 * USDZ for iOS AR Quick Look, made on the server from a model's mesh. Both start from the core-glTF copy Shopify
 * gets (formats/shopify-glb.server.ts: decoded geometry, JPEG/PNG textures ≤ 2048 px), held to AR Quick Look's
 * guidance of about 100,000 triangles, then scaled to real-world size (the owner's measured metres per model unit)
 * and stood on the floor: the footprint centred on the origin, the lowest point at y = 0 — where both viewers put
 * the detected surface.
 */
import { getBounds, type Document } from "@gltf-transform/core";
import { nodeIO, shopifyReadyGlb } from "./shopify-glb.server";
import { usdzOf } from "./usdz.server";

export const AR_MAX_TRIANGLES = 100_000;

/** Scales `document`'s default scene by `metersPerUnit` and stands it on y = 0, centred over the origin. */
export function standOnFloor(document: Document, metersPerUnit: number): { size: [number, number, number] } {
  const root = document.getRoot();
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  if (!scene) return { size: [0, 0, 0] };
  const { min, max } = getBounds(scene);
  const placement = document.createNode("ScanroomArPlacement").setScale([metersPerUnit, metersPerUnit, metersPerUnit]);
  placement.setTranslation([-((min[0] + max[0]) / 2) * metersPerUnit, -min[1] * metersPerUnit, -((min[2] + max[2]) / 2) * metersPerUnit]);
  for (const child of scene.listChildren()) {
    scene.removeChild(child);
    placement.addChild(child);
  }
  scene.addChild(placement);
  return { size: [0, 1, 2].map((k) => (max[k] - min[k]) * metersPerUnit) as [number, number, number] };
}

export interface ArModelFiles {
  glb: Uint8Array;
  usdz: Uint8Array;
  triangles: number;
  /** Width, height and depth in metres. */
  size: [number, number, number];
}

/** The AR files of a mesh (any GLB the site shows); throws ShopifyGlbError when it cannot be converted. */
export async function arModelFiles(mesh: Uint8Array, metersPerUnit: number): Promise<ArModelFiles> {
  const ready = await shopifyReadyGlb(mesh, { maxTriangles: AR_MAX_TRIANGLES });
  const io = await nodeIO();
  const document = await io.readBinary(ready.glb);
  const { size } = standOnFloor(document, metersPerUnit);
  return { glb: await io.writeBinary(document), usdz: usdzOf(document), triangles: ready.report.outputTriangles, size };
}
