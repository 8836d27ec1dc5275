import { createHash } from "node:crypto";
import { buffer } from "node:stream/consumers";
import { db } from "~/db.server";
import { shopifyReadyGlb, ShopifyGlbError } from "~/formats/shopify-glb.server";
import { logger } from "~/lib/logger.server";
import { storage } from "~/storage/index.server";
import { itemPrefix } from "~/storage/keys";
import { meshKeyOf } from "./ar-model";
import { visibleTo } from "./item-access.server";
import { requestFollowUps } from "./outbox.server";
import type { AdminGraphql } from "./shopify-admin-api.server";
import {
  addProductModelMedia,
  deleteModelMedia,
  readModelMediaStates,
  renameModelMedia,
  stageModelUpload,
  uploadToStagedTarget,
} from "./shopify-media-api.server";
import type { MediaState } from "./product-media-presenter";

/**
 * A product's own 3D media (issue 40, docs/decisions/044). A link with `addToMedia` asks for the linked model's
 * mesh in the product's media list, where Shopify's product viewer, AR (Shopify makes the USDZ) and the Shop
 * app read it. `syncProductMedia` makes Shopify match the links: it pushes a Shopify-ready GLB of each model
 * wanted (made once per mesh and kept in storage beside the model), replaces it when the mesh changed (a
 * re-scan, a version restored), sends a rename on as its alt text, and deletes what is no longer wanted (unlinked, the option turned off, the model
 * deleted, hidden or made private). Only media we added is ever deleted: we know it by Shopify's id. It runs in
 * the storefront re-sync job of the product (app/jobs/storefront-sync-jobs.server.ts), so every change that
 * re-syncs a storefront re-syncs the media too, with the queue's retries when Shopify is slow or throttles.
 */

/** Where the Shopify-ready GLB of a mesh is kept (named by the mesh, so a job run twice converts once). */
export function shopifyGlbKey(itemId: string, meshKey: string): string {
  return `${itemPrefix(itemId)}shopify/${createHash("sha256").update(meshKey).digest("hex").slice(0, 16)}.glb`;
}

type Wanted = { itemId: string; name: string; meshKey: string };

/** The models this product's links want in its media: shown to shoppers, with the option on, with a mesh. */
async function wantedMedia(shopId: string, productGid: string): Promise<Wanted[]> {
  const links = await db().productModelLink.findMany({
    where: { shopId, productGid, addToMedia: true, item: { status: "ready", ...visibleTo(null) } },
    select: { item: { select: { id: true, name: true, fileFormat: true, fileKey: true, meshKey: true } } },
    orderBy: { variantGid: "asc" },
  });
  const wanted = new Map<string, Wanted>();
  for (const { item } of links) {
    const meshKey = meshKeyOf(item);
    if (meshKey && !wanted.has(item.id)) wanted.set(item.id, { itemId: item.id, name: item.name, meshKey });
  }
  return [...wanted.values()];
}

/** The Shopify-ready GLB of a mesh, made and stored the first time it is needed. */
async function shopifyGlbOf(wanted: Wanted): Promise<{ bytes: Uint8Array; triangles: number | null }> {
  const store = storage();
  const key = shopifyGlbKey(wanted.itemId, wanted.meshKey);
  if (await store.stat(key)) return { bytes: new Uint8Array(await buffer(await store.createReadStream(key))), triangles: null };
  const mesh = new Uint8Array(await buffer(await store.createReadStream(wanted.meshKey)));
  const { glb, report } = await shopifyReadyGlb(mesh);
  await store.write(key, glb, { contentType: "model/gltf-binary" });
  logger.info("Shopify-ready GLB made", { itemId: wanted.itemId, ...report });
  return { bytes: glb, triangles: report.outputTriangles };
}

/**
 * Uploads the GLB and adds it to the product; the row says how far it got. Media this one replaces is
 * retired (kept in the row until Shopify has deleted it), so no id of ours is ever forgotten.
 */
async function pushMedia(admin: AdminGraphql, shopId: string, productGid: string, wanted: Wanted) {
  const where = { shopId_productGid_itemId: { shopId, productGid, itemId: wanted.itemId } };
  await db().productMedia.upsert({
    where,
    create: { shopId, productGid, itemId: wanted.itemId, sourceKey: wanted.meshKey, status: "uploading" },
    update: { sourceKey: wanted.meshKey, status: "uploading", error: null },
  });
  let glb: { bytes: Uint8Array; triangles: number | null };
  try {
    glb = await shopifyGlbOf(wanted);
  } catch (error) {
    if (!(error instanceof ShopifyGlbError)) throw error;
    await db().productMedia.update({ where, data: { status: "failed", error: error.message } });
    return;
  }
  const filename = `${wanted.name.replace(/[^\w.-]+/g, "-").slice(0, 80) || "model"}.glb`;
  const target = await stageModelUpload(admin, { filename, size: glb.bytes.length });
  await uploadToStagedTarget(target, { filename, bytes: glb.bytes });
  const media = await addProductModelMedia(admin, productGid, { resourceUrl: target.resourceUrl, alt: wanted.name });
  await db().$transaction(async (tx) => {
    const row = await tx.productMedia.findUniqueOrThrow({ where, select: { mediaGid: true } });
    await tx.productMedia.update({
      where,
      data: {
        mediaGid: media.mediaGid,
        alt: wanted.name,
        ...(row.mediaGid ? { retiredMediaGids: { push: row.mediaGid } } : {}),
        status: media.state,
        error: media.error,
        glbBytes: glb.bytes.length,
        ...(glb.triangles === null ? {} : { triangles: glb.triangles }),
      },
    });
  });
}

export type MediaSyncOutcome = { pushed: number; removed: number; processing: number };

/**
 * Makes the product's media match its links (see the module's comment). Throws when Shopify cannot be
 * reached or refuses for a reason that may pass (the queue retries); a model Shopify failed to process stays
 * `failed` with Shopify's reason until the merchant retries. `processing` counts media Shopify still works on:
 * the caller checks again later.
 */
export async function syncProductMedia(admin: AdminGraphql, shopId: string, productGid: string): Promise<MediaSyncOutcome> {
  const wanted = await wantedMedia(shopId, productGid);
  const ours = await db().productMedia.findMany({ where: { shopId, productGid } });
  const outcome: MediaSyncOutcome = { pushed: 0, removed: 0, processing: 0 };

  // New and changed meshes go up first, so a replaced model's media is never missing in between. A row left
  // "uploading" (a crash, a retry asked for) is pushed again.
  for (const model of wanted) {
    const row = ours.find((media) => media.itemId === model.itemId);
    if (row && row.sourceKey === model.meshKey && row.status !== "uploading") {
      // The same mesh: only a renamed model's alt text is sent on.
      if (row.mediaGid && row.alt !== model.name) {
        await renameModelMedia(admin, row.mediaGid, model.name);
        await db().productMedia.update({ where: { id: row.id }, data: { alt: model.name } });
      }
      continue;
    }
    await pushMedia(admin, shopId, productGid, model);
    outcome.pushed += 1;
  }

  // Then what is no longer wanted, and what was replaced, is deleted at Shopify before we forget it.
  const unwanted = ours.filter((media) => !wanted.some((model) => model.itemId === media.itemId));
  const rows = await db().productMedia.findMany({ where: { shopId, productGid }, select: { id: true, retiredMediaGids: true } });
  const retired = rows.flatMap((row) => row.retiredMediaGids);
  const toDelete = [...retired, ...unwanted.flatMap((media) => (media.mediaGid ? [media.mediaGid] : []))];
  await deleteModelMedia(admin, toDelete);
  // (A row's retired list is cleared only if no other sync has added to it meanwhile.)
  await db().$transaction([
    db().productMedia.deleteMany({ where: { id: { in: unwanted.map((media) => media.id) } } }),
    ...rows
      .filter((row) => row.retiredMediaGids.length > 0)
      .map((row) => db().productMedia.updateMany({ where: { id: row.id, retiredMediaGids: { equals: row.retiredMediaGids } }, data: { retiredMediaGids: [] } })),
  ]);
  outcome.removed = toDelete.length;

  // Media Shopify is still processing: read its state now.
  const pending = await db().productMedia.findMany({ where: { shopId, productGid, status: "processing", mediaGid: { not: null } } });
  const states = await readModelMediaStates(admin, pending.map((media) => media.mediaGid!));
  for (const media of pending) {
    const state = states.get(media.mediaGid!);
    if (!state) {
      // Deleted by the merchant in Shopify's admin: theirs to decide; we stop tracking it.
      await db().productMedia.delete({ where: { id: media.id } });
      continue;
    }
    if (state.state !== media.status) await db().productMedia.update({ where: { id: media.id }, data: { status: state.state, error: state.error } });
    if (state.state === "processing") outcome.processing += 1;
  }
  if (outcome.pushed + outcome.removed > 0) logger.info("product media synced", { productGid, ...outcome });
  return outcome;
}

export interface ProductMediaView {
  itemId: string;
  status: MediaState;
  error: string | null;
  glbBytes: number | null;
  triangles: number | null;
}

/** Our media on these products of a shop, for the admin's product rows. */
export async function listProductMedia({ shopDomain, productGids }: { shopDomain: string; productGids: string[] }) {
  const rows = await db().productMedia.findMany({
    where: { shop: { shopDomain }, productGid: { in: productGids } },
    select: { productGid: true, itemId: true, status: true, error: true, glbBytes: true, triangles: true },
  });
  return rows.map((row) => ({ ...row, status: row.status as MediaState }));
}

/** The merchant's retry of failed media: pushed again by the product's re-sync (the failed one is then deleted). */
export async function retryFailedProductMedia({ shopDomain, productGid }: { shopDomain: string; productGid: string }): Promise<number> {
  const { count } = await db().productMedia.updateMany({ where: { shop: { shopDomain }, productGid, status: "failed" }, data: { status: "uploading", error: null } });
  if (count > 0) await requestFollowUps([{ kind: "storefront-sync", products: [{ shopDomain, productGid }] }]);
  return count;
}
