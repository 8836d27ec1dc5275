import { db } from "~/db.server";
import { logger } from "~/lib/logger.server";
import { shopify } from "~/shopify.server";
import { requestFollowUps } from "./outbox.server";
import { syncProductMedia } from "./product-media.server";
import { lockShop, syncProductMetafield } from "./product-links.server";
import type { AdminGraphql } from "./shopify-admin-api.server";

/**
 * Keeps storefronts in step with the models they show (issue 7). When a linked model is deleted,
 * made private, unpublished by a moderator or renamed, each product showing it gets its `$app`
 * metafield rewritten from the links that remain visible — so the theme block never points at a
 * model shoppers cannot open. Runs as queued jobs (app/jobs/storefront-sync-jobs.server.ts) with
 * the shop's offline token: Shopify may be slow or down, and the owner's change must not wait.
 */
export interface StorefrontProduct {
  shopDomain: string;
  productGid: string;
}

/** The installed stores' products that link `itemId` (read before a delete: the links go with the item). */
export async function storefrontProductsOf(itemId: string): Promise<StorefrontProduct[]> {
  const links = await db().productModelLink.findMany({
    where: { itemId, shop: { uninstalledAt: null } },
    select: { productGid: true, shop: { select: { shopDomain: true } } },
    distinct: ["shopId", "productGid"],
  });
  return links.map((link) => ({ shopDomain: link.shop.shopDomain, productGid: link.productGid }));
}

/**
 * Call after a change to a model that storefronts may show (visibility, moderation, name, thumbnail): each
 * product showing it is re-synced once the change has committed (the outbox). `products` when they were read
 * before the change (a delete takes the links with it). Never fails the caller's change: a problem is logged
 * (the block then shows its poster until the next sync).
 */
export async function storefrontsShowingItemChanged(itemId: string, products?: StorefrontProduct[]): Promise<void> {
  try {
    const showing = products ?? (await storefrontProductsOf(itemId));
    if (showing.length > 0) await requestFollowUps([{ kind: "storefront-sync", products: showing }]);
  } catch (error) {
    logger.error("could not queue the storefront re-sync", { error, itemId });
  }
}

/** Call after a change to an account that hides or shows all its models (disabled, enabled again). Never fails the caller. */
export async function storefrontsShowingOwnerChanged(ownerId: string): Promise<void> {
  try {
    const showing = await storefrontProductsOfOwner(ownerId);
    if (showing.length > 0) await requestFollowUps([{ kind: "storefront-sync", products: showing }]);
  } catch (error) {
    logger.error("could not queue the storefront re-sync", { error, ownerId });
  }
}

/**
 * The installed stores' products that link any of `ownerId`'s models, in one query (an account disabled or
 * enabled again changes what every storefront showing its models may show).
 */
export async function storefrontProductsOfOwner(ownerId: string): Promise<StorefrontProduct[]> {
  const links = await db().productModelLink.findMany({
    where: { item: { ownerId }, shop: { uninstalledAt: null } },
    select: { productGid: true, shop: { select: { shopDomain: true } } },
    distinct: ["shopId", "productGid"],
  });
  return links.map((link) => ({ shopDomain: link.shop.shopDomain, productGid: link.productGid }));
}

async function offlineAdmin(shopDomain: string): Promise<AdminGraphql> {
  const { admin } = await shopify().unauthenticated.admin(shopDomain);
  return admin;
}

/**
 * Brings one product at Shopify in step with its links: its metafield (the theme block), then its own 3D media
 * (domain/product-media.server.ts). A store that uninstalled the app is skipped (its metafields went with it;
 * media we added stays the merchant's). Throws when Shopify refuses, so the queue retries. `mediaProcessing`:
 * media Shopify still processes, to be checked again later.
 */
export async function resyncProduct(target: StorefrontProduct, admin?: AdminGraphql): Promise<{ status: "synced" | "skipped"; mediaProcessing: number }> {
  const shop = await db().shop.findUnique({ where: { shopDomain: target.shopDomain } });
  if (!shop || shop.uninstalledAt) return { status: "skipped", mediaProcessing: 0 };
  const client = admin ?? (await offlineAdmin(target.shopDomain));
  await db().$transaction(
    async (tx) => {
      await lockShop(tx, shop.id);
      await syncProductMetafield(tx, client, shop.id, target.productGid);
    },
    { maxWait: 15_000, timeout: 30_000 },
  );
  logger.info("storefront metafield re-synced", { shop: target.shopDomain, product: target.productGid });
  const media = await syncProductMedia(client, shop.id, target.productGid);
  return { status: "synced", mediaProcessing: media.processing };
}
