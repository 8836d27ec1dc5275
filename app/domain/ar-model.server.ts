import { buffer } from "node:stream/consumers";
import { ShopifyGlbError } from "~/formats/shopify-glb.server";
import { AppError, notFound } from "~/lib/errors";
import { logger } from "~/lib/logger.server";
import { storage } from "~/storage/index.server";
import { itemPrefix } from "~/storage/keys";
import { serveStoredObject } from "~/storage/serve-object.server";
import { AR_FILES, arFilesVersion, arSourceKey, type ArFile } from "./ar-model";
import { getVisibleItem } from "./item-access.server";
import { migrateViewerSettings } from "./viewer-settings";

/**
 * The AR files of a model (issue 35 item 1, docs/decisions/054), for whoever may see it: made from its mesh the
 * first time a phone asks, kept in storage beside the model (named by the mesh and the real-world scale, so a new
 * mesh or a new scale makes new files and an old link is never served a stale one), then served like any stored
 * file. Two requests for files not made yet share one conversion in this process.
 */
const making = new Map<string, Promise<void>>();

export function arFileKey(itemId: string, version: string, file: ArFile): string {
  return `${itemPrefix(itemId)}ar/${version}/${AR_FILES[file].name}`;
}

async function makeArFiles(itemId: string, sourceKey: string, version: string, metersPerUnit: number): Promise<void> {
  const { arModelFiles } = await import("~/formats/ar-model.server"); // gltf-transform, sharp, meshoptimizer: only when asked
  const store = storage();
  const mesh = new Uint8Array(await buffer(await store.createReadStream(sourceKey)));
  const started = Date.now();
  let files;
  try {
    files = await arModelFiles(mesh, metersPerUnit);
  } catch (error) {
    if (error instanceof ShopifyGlbError) throw new AppError("not_found", `This model cannot be viewed in AR: ${error.message}`);
    throw error;
  }
  // The GLB last: its presence says both are there.
  await store.write(arFileKey(itemId, version, "usdz"), files.usdz, { contentType: AR_FILES.usdz.type });
  await store.write(arFileKey(itemId, version, "glb"), files.glb, { contentType: AR_FILES.glb.type });
  logger.info("AR files made", { itemId, triangles: files.triangles, size: files.size, usdzBytes: files.usdz.length, glbBytes: files.glb.length, ms: Date.now() - started });
}

async function ensureArFiles(itemId: string, sourceKey: string, version: string, metersPerUnit: number): Promise<void> {
  if (await storage().stat(arFileKey(itemId, version, "glb"))) return;
  const key = arFileKey(itemId, version, "glb");
  let pending = making.get(key);
  if (!pending) {
    pending = makeArFiles(itemId, sourceKey, version, metersPerUnit).finally(() => making.delete(key));
    making.set(key, pending);
  }
  await pending;
}

/** GET /v1/item/{id}/ar/{usdz|glb}: the model's AR file, made on first request; 404 for what the viewer may not see. */
export async function serveArFile(input: { itemId: string; file: ArFile; viewerId: string | null; request: Request }): Promise<Response> {
  const item = await getVisibleItem({ itemId: input.itemId, viewerId: input.viewerId });
  const sourceKey = arSourceKey(item);
  if (!sourceKey) throw notFound("AR model");
  const metersPerUnit = migrateViewerSettings(item.settings, item.settingsVersion).meters_per_unit;
  const version = arFilesVersion(sourceKey, metersPerUnit);
  await ensureArFiles(item.id, sourceKey, version, metersPerUnit ?? 1);
  const current = new URL(input.request.url).searchParams.get("v") === version;
  const served = await serveStoredObject({
    store: storage(),
    key: arFileKey(item.id, version, input.file),
    request: input.request,
    headers: {
      "Content-Type": AR_FILES[input.file].type,
      // A link names its version: a changed mesh or scale gets a new link, so the named one may be kept.
      "Cache-Control": current ? "private, max-age=86400" : "private, no-cache",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'",
    },
  });
  if (!served) throw notFound("AR model");
  return served;
}
