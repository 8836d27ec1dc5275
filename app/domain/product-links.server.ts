import { db, type Prisma } from "~/db.server";
import { env } from "~/env.server";
import { buildModelMetafield } from "~/lib/shopify-model-metafield";
import { getUserQuotas } from "./credits.server";
import { AppError, notFound } from "~/lib/errors";
import { visibleTo } from "./item-access.server";
import { requestFollowUps } from "./outbox.server";
import { meshKeyOf } from "./ar-model";
import {
  findProductsByHandles,
  getProduct,
  writeModelMetafield,
  type AdminGraphql,
  type ShopifyProduct,
} from "./shopify-admin-api.server";

/**
 * Product ↔ model links of a Shopify store (DESIGN §4). Each link lives in our database and, for the
 * storefront, in the product's app-owned `$app:scanroom.model` metafield; both change together. Every query
 * is scoped by the shop's domain, which comes from a verified session token or webhook HMAC — a product or
 * link id from the request is never enough (STYLE habit 5).
 */

type Tx = Prisma.TransactionClient;

const itemSelect = { id: true, name: true, thumbnailKey: true } as const;

/** The models a connected account may put on a storefront: ready, and visible to shoppers (/embed/{id}). */
function attachableWhere(ownerId: string): Prisma.ItemWhereInput {
  return { ownerId, status: "ready", visibility: { in: ["public", "unlisted"] }, unpublishedAt: null };
}

async function installedShop(shopDomain: string, client: Tx | ReturnType<typeof db> = db()) {
  const shop = await client.shop.findUnique({ where: { shopDomain } });
  if (!shop || shop.uninstalledAt) throw notFound("Store");
  return shop;
}

async function connectedShop(shopDomain: string, client: Tx | ReturnType<typeof db> = db()) {
  const shop = await installedShop(shopDomain, client);
  if (!shop.userId) throw new AppError("forbidden", "Connect this store to a Scanroom account first.");
  return { ...shop, userId: shop.userId };
}

/** Whether the shop is connected, and the connected account's models that can be attached (newest first). */
export async function listAttachableModels({ shopDomain }: { shopDomain: string }) {
  const shop = await db().shop.findUnique({ where: { shopDomain }, select: { userId: true } });
  if (!shop?.userId) return { connected: false, models: [] };
  const models = await db().item.findMany({
    where: attachableWhere(shop.userId),
    select: { ...itemSelect, fileFormat: true, fileKey: true, meshKey: true },
    orderBy: { createdAt: "desc" },
    take: 200,
  });
  return {
    connected: true,
    models: models.map(({ fileFormat, fileKey, meshKey, ...model }) => ({ ...model, hasMesh: meshKeyOf({ fileFormat, fileKey, meshKey }) !== null })),
  };
}

/** This shop's links for the given products, with each linked model's name, thumbnail and whether it has a mesh. */
export async function listProductLinks({ shopDomain, productGids }: { shopDomain: string; productGids?: string[] }) {
  const links = await db().productModelLink.findMany({
    where: { shop: { shopDomain }, ...(productGids ? { productGid: { in: productGids } } : {}) },
    select: { productGid: true, variantGid: true, addToMedia: true, item: { select: { ...itemSelect, fileFormat: true, fileKey: true, meshKey: true } } },
    orderBy: [{ productGid: "asc" }, { variantGid: "asc" }],
  });
  return links.map(({ item: { fileFormat, fileKey, meshKey, ...item }, ...link }) => ({
    ...link,
    item: { ...item, hasMesh: meshKeyOf({ fileFormat, fileKey, meshKey }) !== null },
  }));
}

/** Links of the connected account across all its stores, and its plan's cap (-1 = unlimited). */
export async function getLinkUsage({ userId }: { userId: string }) {
  const [used, quotas] = await Promise.all([
    db().productModelLink.count({ where: { shop: { userId } } }),
    getUserQuotas({ userId }),
  ]);
  return { used, quota: quotas.link_quota };
}

/** Locks the shop's row so concurrent changes to its links (and metafields) run one after another. */
export async function lockShop(tx: Tx, shopId: string) {
  await tx.$queryRaw`SELECT id FROM "Shop" WHERE id = ${shopId}::uuid FOR UPDATE`;
}

/**
 * Rewrites the product's metafield from its links in the database (inside the caller's transaction).
 * Only links to models shoppers may see are written: a model made private, unpublished, deleted or
 * whose owner was disabled leaves the storefront (its link stays, and comes back when it is visible again).
 */
export async function syncProductMetafield(tx: Tx, admin: AdminGraphql, shopId: string, productGid: string) {
  const links = await tx.productModelLink.findMany({
    where: { shopId, productGid, item: { status: "ready", ...visibleTo(null) } },
    select: { variantGid: true, item: { select: itemSelect } },
  });
  await writeModelMetafield(admin, productGid, buildModelMetafield(links, env().APP_URL));
}

/**
 * Attaches one of the connected account's models to a product, or to one of its variants. Replaces a model
 * already there. The DB change and the metafield write commit together: if Shopify refuses the write, the
 * link is rolled back. `product`, when given, is the already-fetched product (the CSV import has it).
 */
export async function attachModel(input: {
  admin: AdminGraphql;
  shopDomain: string;
  productGid: string;
  variantGid: string;
  itemId: string;
  /** Also push the model's mesh to the product's own media (issue 40); off when not given. */
  addToMedia?: boolean;
  product?: ShopifyProduct;
}) {
  const shop = await connectedShop(input.shopDomain);
  const item = await db().item.findFirst({ where: { id: input.itemId, ...attachableWhere(shop.userId) }, select: itemSelect });
  if (!item) throw notFound("Model");
  // The Admin API answers with this shop's products only: a product of another store is "not found".
  const product = input.product ?? (await getProduct(input.admin, input.productGid));
  if (product.id !== input.productGid) throw notFound("Product");
  if (input.variantGid !== "" && !product.variants.some((variant) => variant.id === input.variantGid)) {
    throw notFound("Variant");
  }

  const { link_quota: quota } = await getUserQuotas({ userId: shop.userId });

  const result = await db().$transaction(
    async (tx) => {
      // The account's row guards its link cap across all its stores; the shop's row orders metafield writes.
      await tx.$queryRaw`SELECT id FROM "User" WHERE id = ${shop.userId}::uuid FOR UPDATE`;
      await lockShop(tx, shop.id);
      const key = { shopId: shop.id, productGid: input.productGid, variantGid: input.variantGid };
      const existing = await tx.productModelLink.findUnique({ where: { shopId_productGid_variantGid: key } });
      if (!existing) {
        const used = await tx.productModelLink.count({ where: { shop: { userId: shop.userId } } });
        if (quota !== -1 && used >= quota) {
          throw new AppError(
            "quota_exceeded",
            `Your plan allows ${quota} product links and all are in use. Detach a model or upgrade your plan.`,
          );
        }
      }
      const addToMedia = input.addToMedia ?? false;
      const link = await tx.productModelLink.upsert({
        where: { shopId_productGid_variantGid: key },
        create: { ...key, itemId: item.id, addToMedia },
        update: { itemId: item.id, addToMedia },
      });
      await syncProductMetafield(tx, input.admin, shop.id, input.productGid);
      return link;
    },
    { maxWait: 15_000, timeout: 30_000 },
  );
  await productMediaMayHaveChanged(shop.id, input.shopDomain, input.productGid);
  return result;
}

/**
 * After a link change: when the product has media we added, or links that ask for it, its media is brought
 * in step by the product's re-sync job (queued once the change has committed).
 */
async function productMediaMayHaveChanged(shopId: string, shopDomain: string, productGid: string) {
  const [asking, ours] = await Promise.all([
    db().productModelLink.count({ where: { shopId, productGid, addToMedia: true } }),
    db().productMedia.count({ where: { shopId, productGid } }),
  ]);
  if (asking + ours > 0) await requestFollowUps([{ kind: "storefront-sync", products: [{ shopDomain, productGid }] }]);
}

/** Turns the product-media option of one link on or off; 404 when this shop has no such link. */
export async function setLinkAddToMedia(input: { shopDomain: string; productGid: string; variantGid: string; addToMedia: boolean }) {
  const shop = await installedShop(input.shopDomain);
  const { count } = await db().productModelLink.updateMany({
    where: { shopId: shop.id, productGid: input.productGid, variantGid: input.variantGid },
    data: { addToMedia: input.addToMedia },
  });
  if (count === 0) throw notFound("Link");
  await productMediaMayHaveChanged(shop.id, input.shopDomain, input.productGid);
}

/** Detaches the model from a product or variant of this shop; 404 when this shop has no such link. */
export async function detachModel(input: { admin: AdminGraphql; shopDomain: string; productGid: string; variantGid: string }) {
  const shop = await installedShop(input.shopDomain);
  await db().$transaction(
    async (tx) => {
      await lockShop(tx, shop.id);
      const { count } = await tx.productModelLink.deleteMany({
        where: { shopId: shop.id, productGid: input.productGid, variantGid: input.variantGid },
      });
      if (count === 0) throw notFound("Link");
      await syncProductMetafield(tx, input.admin, shop.id, input.productGid);
    },
    { maxWait: 15_000, timeout: 30_000 },
  );
  await productMediaMayHaveChanged(shop.id, input.shopDomain, input.productGid);
}

/** products/delete: the product and its metafields are gone at Shopify; drop our links to it. */
export async function removeProductLinks({ shopDomain, productGid }: { shopDomain: string; productGid: string }, client: Tx) {
  const { count } = await client.productModelLink.deleteMany({ where: { shop: { shopDomain }, productGid } });
  return { shopDomain, productGid, linksDeleted: count };
}

export type BulkRowResult = { line: number; handle: string; ok: true } | { line: number; handle: string; ok: false; message: string };

/**
 * The CSV import: looks the handles up in batches, then attaches row by row, so one bad row (unknown handle,
 * model or variant, a full plan) is reported without stopping the rest.
 */
export async function bulkAttachByHandle(input: {
  admin: AdminGraphql;
  shopDomain: string;
  rows: Array<{ line: number; handle: string; itemId: string; variantGid: string }>;
  addToMedia?: boolean;
}): Promise<BulkRowResult[]> {
  await connectedShop(input.shopDomain);
  const products = await findProductsByHandles(input.admin, input.rows.map((row) => row.handle));
  const results: BulkRowResult[] = [];
  for (const row of input.rows) {
    const product = products.get(row.handle);
    if (!product) {
      results.push({ line: row.line, handle: row.handle, ok: false, message: "No product with this handle." });
      continue;
    }
    try {
      await attachModel({
        admin: input.admin,
        shopDomain: input.shopDomain,
        productGid: product.id,
        variantGid: row.variantGid,
        itemId: row.itemId,
        addToMedia: input.addToMedia,
        product,
      });
      results.push({ line: row.line, handle: row.handle, ok: true });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      results.push({ line: row.line, handle: row.handle, ok: false, message: error.message });
    }
  }
  return results;
}
