import { db, type Prisma } from "~/db.server";
import { logger } from "~/lib/logger.server";
import { stopShopBilling } from "./shopify-billing.server";

/**
 * Shopify shops: install state, compliance webhooks and webhook idempotency. Every query is scoped by the
 * shop's myshopify domain, which comes from an HMAC-verified webhook or a verified session token.
 *
 * Functions that webhooks call take an optional client so `runWebhookOnce` can run them inside the same
 * transaction as the event marker (all or nothing).
 */

type Client = Prisma.TransactionClient;

/** Shopify sends shop/redact 48 hours after uninstall; we keep what we need until then. */
const REDACT_DELAY_MS = 48 * 60 * 60 * 1000;

/** Makes sure a Shop row exists and is marked installed. Idempotent; writes only on first sight or reinstall. */
export async function recordInstall({ shopDomain }: { shopDomain: string }) {
  const existing = await db().shop.findUnique({ where: { shopDomain } });
  if (existing && !existing.uninstalledAt && !existing.redactAfter) return existing;
  return db().shop.upsert({
    where: { shopDomain },
    create: { shopDomain },
    update: { installedAt: new Date(), uninstalledAt: null, redactAfter: null },
  });
}

/** What the embedded admin home shows: connection to a Scanroom account and the number of product links. */
export async function getShopOverview({ shopDomain }: { shopDomain: string }) {
  const shop = await db().shop.findUnique({
    where: { shopDomain },
    select: { userId: true, installedAt: true, _count: { select: { links: true } } },
  });
  return {
    shopDomain,
    connected: Boolean(shop?.userId),
    installedAt: shop?.installedAt ?? null,
    linkCount: shop?._count.links ?? 0,
  };
}

/**
 * app/uninstalled: the access token is dead, so drop the sessions; keep the shop and its product links so a
 * reinstall within 48 hours finds them (shop/redact removes them after that). Shopify cancels the store's
 * charges, so a plan this store paid for ends too.
 */
export async function handleAppUninstalled({ shopDomain }: { shopDomain: string }, client: Client = db()) {
  const now = new Date();
  const billing = await stopShopBilling({ shopDomain }, client);
  const sessions = await client.shopifySession.deleteMany({ where: { shop: shopDomain } });
  const shops = await client.shop.updateMany({
    where: { shopDomain },
    data: { uninstalledAt: now, redactAfter: new Date(now.getTime() + REDACT_DELAY_MS) },
  });
  logger.info("shopify app uninstalled", { shop: shopDomain, sessionsDeleted: sessions.count, billingStopped: billing.stopped });
  return { shopDomain, sessionsDeleted: sessions.count, shopMarked: shops.count > 0, billingStopped: billing.stopped };
}

/** shop/redact: erase everything we hold about the shop (links, the shop row, sessions). */
export async function handleShopRedact({ shopDomain }: { shopDomain: string }, client: Client = db()) {
  const links = await client.productModelLink.deleteMany({ where: { shop: { shopDomain } } });
  const shops = await client.shop.deleteMany({ where: { shopDomain } });
  const sessions = await client.shopifySession.deleteMany({ where: { shop: shopDomain } });
  logger.info("shopify shop redacted", { shop: shopDomain, links: links.count, sessions: sessions.count });
  return {
    shopDomain,
    linksDeleted: links.count,
    shopDeleted: shops.count > 0,
    sessionsDeleted: sessions.count,
  };
}

/**
 * customers/redact: we never store shopper data (no customers, orders or emails from Shopify), so there is
 * nothing to erase. Logged without the payload, which carries the shopper's email and phone.
 */
export async function handleCustomersRedact({ shopDomain }: { shopDomain: string }) {
  logger.info("shopify customers/redact: no shopper data held", { shop: shopDomain });
  return { shopDomain, topic: "customers/redact", customerRecordsHeld: 0, deleted: 0 };
}

/** customers/data_request: we hold no shopper data, so the answer to the merchant is "nothing". */
export async function handleCustomersDataRequest({ shopDomain }: { shopDomain: string }) {
  logger.info("shopify customers/data_request: no shopper data held", { shop: shopDomain });
  return { shopDomain, topic: "customers/data_request", customerRecordsHeld: 0, records: [] as never[] };
}

export type WebhookRunResult<T> = { duplicate: true } | { duplicate: false; result: T };

/**
 * Runs `fn` once per Shopify event. The WebhookEvent primary key is the lock: the marker insert uses
 * ON CONFLICT DO NOTHING, so a concurrent delivery of the same event waits for the first transaction and
 * then either skips (it committed) or runs (it rolled back). `fn` runs in that transaction, so if it throws
 * the marker is rolled back too and Shopify's retry runs it again.
 */
export async function runWebhookOnce<T>(
  { eventId, topic, shop }: { eventId: string; topic: string; shop: string },
  fn: (tx: Client) => Promise<T>,
): Promise<WebhookRunResult<T>> {
  const id = `shopify:${topic}:${eventId}`;
  return db().$transaction(
    async (tx): Promise<WebhookRunResult<T>> => {
      const marker = await tx.webhookEvent.createMany({
        data: [{ id, source: "shopify", topic, shop }],
        skipDuplicates: true,
      });
      if (marker.count === 0) {
        logger.info("shopify webhook already handled", { shop, topic, eventId });
        return { duplicate: true };
      }
      return { duplicate: false, result: await fn(tx) };
    },
    { maxWait: 10_000, timeout: 30_000 },
  );
}
