import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { db } from "~/db.server";
import { env } from "~/env.server";
import { logger } from "~/lib/logger.server";
import { AppError } from "~/lib/errors";

/**
 * Linking a Shopify store to a Scanroom account. Sign-in cannot run inside the admin iframe, so the embedded
 * admin (whose session token proves the shop) issues a link to /auth/connect/shopify on the site, where the
 * merchant signs in and confirms. The link's token is:
 * - signed (HMAC-SHA256 with SESSION_SECRET, under its own purpose label),
 * - bound to the shop that asked for it (a token for shop A cannot connect shop B),
 * - short-lived (15 minutes), and
 * - single-use: its nonce is recorded in WebhookEvent (source "connect") in the same transaction that
 *   connects the shop, so a replay finds the marker and is refused.
 */

export const CONNECT_TOKEN_TTL_MS = 15 * 60 * 1000;
const PURPOSE = "scanroom:shopify-connect:v1";

const payloadSchema = z.object({
  shop: z.string().regex(/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/),
  nonce: z.string().regex(/^[0-9a-f]{32}$/),
  exp: z.number().int().positive(),
});
export type ConnectTokenPayload = z.infer<typeof payloadSchema>;

function sign(encoded: string): Buffer {
  return createHmac("sha256", env().SESSION_SECRET).update(`${PURPOSE}.${encoded}`).digest();
}

/** A fresh connect token for `shopDomain` (the shop of a verified admin session). */
export function issueConnectToken({ shopDomain, now = Date.now() }: { shopDomain: string; now?: number }): string {
  const payload: ConnectTokenPayload = { shop: shopDomain, nonce: randomBytes(16).toString("hex"), exp: now + CONNECT_TOKEN_TTL_MS };
  const encoded = Buffer.from(JSON.stringify(payloadSchema.parse(payload))).toString("base64url");
  return `${encoded}.${sign(encoded).toString("base64url")}`;
}

/** The token's payload if its signature holds and it has not expired; otherwise a 403 with a reason. */
export function readConnectToken(token: string, now = Date.now()): ConnectTokenPayload {
  const invalid = new AppError("invalid_signature", "This connect link is not valid. Open Scanroom in your Shopify admin to get a new one.");
  const [encoded, signature, ...rest] = token.split(".");
  if (!encoded || !signature || rest.length > 0) throw invalid;
  const expected = sign(encoded);
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid;
  let parsed: ConnectTokenPayload;
  try {
    parsed = payloadSchema.parse(JSON.parse(Buffer.from(encoded, "base64url").toString("utf8")));
  } catch {
    throw invalid;
  }
  if (parsed.exp <= now) {
    throw new AppError("forbidden", "This connect link has expired. Open Scanroom in your Shopify admin to get a new one.");
  }
  return parsed;
}

/** What the connect page shows before the merchant confirms: the store and its current state. */
export async function describeConnectToken({ token }: { token: string }) {
  const payload = readConnectToken(token);
  const shop = await db().shop.findUnique({
    where: { shopDomain: payload.shop },
    select: { uninstalledAt: true, userId: true, user: { select: { email: true, displayName: true } } },
  });
  if (!shop || shop.uninstalledAt) throw new AppError("not_found", "This store does not have Scanroom installed.");
  return {
    shopDomain: payload.shop,
    expiresAt: new Date(payload.exp),
    connectedUserId: shop.userId,
    connectedTo: shop.user ? (shop.user.email ?? shop.user.displayName) : null,
  };
}

/**
 * Connects the token's shop to `userId`. `shopDomain` is the store the merchant confirmed on the page; it
 * must be the token's. Refuses an invalid, expired, other-shop or already-used token, writing nothing.
 */
export async function connectShop({ token, shopDomain, userId }: { token: string; shopDomain: string; userId: string }) {
  const payload = readConnectToken(token);
  if (payload.shop !== shopDomain) throw new AppError("forbidden", "This connect link was issued for another store.");
  return db().$transaction(async (tx) => {
    const marker = await tx.webhookEvent.createMany({
      data: [{ id: `connect:${payload.nonce}`, source: "connect", topic: "shop/connect", shop: payload.shop }],
      skipDuplicates: true,
    });
    if (marker.count === 0) throw new AppError("conflict", "This connect link was already used. Open Scanroom in your Shopify admin to get a new one.");
    const { count } = await tx.shop.updateMany({ where: { shopDomain: payload.shop, uninstalledAt: null }, data: { userId } });
    // Throwing rolls the marker back too, so the link stays usable once the store is installed again.
    if (count === 0) throw new AppError("not_found", "This store does not have Scanroom installed.");
    logger.info("shopify shop connected", { shop: payload.shop, userId });
    return { shopDomain: payload.shop };
  });
}

/** The signed-in user's connected stores, for /shopify/dashboard. */
export async function listConnectedShops({ userId }: { userId: string }) {
  return db().shop.findMany({
    where: { userId },
    orderBy: { shopDomain: "asc" },
    select: {
      shopDomain: true,
      installedAt: true,
      uninstalledAt: true,
      planName: true,
      links: {
        select: { productGid: true, variantGid: true, updatedAt: true, item: { select: { id: true, name: true } } },
        orderBy: [{ productGid: "asc" }, { variantGid: "asc" }],
      },
    },
  });
}
