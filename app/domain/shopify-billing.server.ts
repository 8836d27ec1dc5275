import { db, type PlanType, type Prisma } from "~/db.server";
import { env } from "~/env.server";
import { logger } from "~/lib/logger.server";
import { addMonths } from "./calendar-months";
import { ensureSubscription } from "./plans.server";

/**
 * Merchants pay for Scanroom plans through Shopify's Billing API (recurring app charges). Our plans
 * (Plan table: starter/growth/pro) map one-to-one to named Shopify charges configured in shopify.server.ts.
 * An ACTIVE charge sets the connected account's Subscription (provider "shopify", externalId = the
 * AppSubscription GID); a charge that ends puts it back on the free plan. Every function here is idempotent:
 * the plan page, the dashboard and the app_subscriptions/update webhook may all report the same charge.
 *
 * Shop.planName remembers which store pays, so a store without a charge never cancels the plan another of
 * the account's stores pays for.
 */

export const SHOPIFY_PLAN_NAMES = {
  starter: "Scanroom Starter",
  growth: "Scanroom Growth",
  pro: "Scanroom Pro",
} as const satisfies Partial<Record<PlanType, string>>;
export type ShopifyPaidPlan = keyof typeof SHOPIFY_PLAN_NAMES;
export type ShopifyPlanName = (typeof SHOPIFY_PLAN_NAMES)[ShopifyPaidPlan];
export const SHOPIFY_PAID_PLANS = Object.keys(SHOPIFY_PLAN_NAMES) as ShopifyPaidPlan[];

export function planTypeOfCharge(name: string): ShopifyPaidPlan | null {
  return SHOPIFY_PAID_PLANS.find((planType) => SHOPIFY_PLAN_NAMES[planType] === name) ?? null;
}

/** The paid plans a merchant can pick, with prices from the Plan table (minor units). */
export async function listShopifyPlans() {
  return db().plan.findMany({
    where: { planType: { in: SHOPIFY_PAID_PLANS }, isActive: true },
    orderBy: { sortOrder: "asc" },
  });
}

export interface ShopifyCharge {
  id: string; // gid://shopify/AppSubscription/…
  name: string;
  status: string; // ACTIVE, PENDING, CANCELLED, DECLINED, EXPIRED, FROZEN, ACCEPTED
  currentPeriodEnd?: string | null;
}

async function revertToFree(client: Prisma.TransactionClient, userId: string, shopDomain: string, reason: string) {
  const free = await client.plan.findUniqueOrThrow({ where: { planType: "free" } });
  const start = new Date();
  await client.subscription.update({
    where: { userId },
    data: { planId: free.id, provider: "none", externalId: null, status: "active", currentPeriodStart: start, currentPeriodEnd: addMonths(start, 1) },
  });
  await client.shop.updateMany({ where: { shopDomain }, data: { planName: null } });
  logger.info("shopify billing ended: account back on the free plan", { shop: shopDomain, userId, reason });
}

/**
 * Brings the connected account's subscription in line with the shop's charges as Shopify reports them
 * (billing.check / billing.require, or a webhook). Returns the plan type now paid through this shop, or null.
 */
export async function syncShopifyCharges(
  { shopDomain, charges }: { shopDomain: string; charges: ShopifyCharge[] },
  client?: Prisma.TransactionClient,
): Promise<ShopifyPaidPlan | null> {
  if (!client) return db().$transaction((tx) => syncShopifyCharges({ shopDomain, charges }, tx));
  const active = charges.find((charge) => charge.status === "ACTIVE" && planTypeOfCharge(charge.name));
  const planType = active ? planTypeOfCharge(active.name) : null;
  const shop = await client.shop.findUnique({ where: { shopDomain }, select: { userId: true, planName: true } });
  if (!shop) return null;
  if (!shop.userId) {
    if (shop.planName !== planType) await client.shop.updateMany({ where: { shopDomain }, data: { planName: planType } });
    return planType;
  }
  await ensureSubscription({ userId: shop.userId });
  const subscription = await client.subscription.findUniqueOrThrow({ where: { userId: shop.userId } });

  if (!active || !planType) {
    if (shop.planName && subscription.provider === "shopify") await revertToFree(client, shop.userId, shopDomain, "no active charge");
    else if (shop.planName) await client.shop.updateMany({ where: { shopDomain }, data: { planName: null } });
    return null;
  }

  const plan = await client.plan.findUniqueOrThrow({ where: { planType } });
  const reportedEnd = active.currentPeriodEnd ? new Date(active.currentPeriodEnd) : null;
  const sameCharge = subscription.provider === "shopify" && subscription.externalId === active.id && subscription.planId === plan.id;
  const renewed = sameCharge && reportedEnd !== null && reportedEnd > subscription.currentPeriodEnd;
  if (sameCharge && !renewed && shop.planName === planType) return planType; // nothing changed

  // A new charge starts a new period (so the new plan's credits are granted at once); a renewal of the same
  // charge moves the period on from where the last one ended.
  const start = !sameCharge ? new Date() : renewed ? subscription.currentPeriodEnd : subscription.currentPeriodStart;
  const end = reportedEnd && reportedEnd > start ? reportedEnd : sameCharge ? subscription.currentPeriodEnd : addMonths(start, 1);
  await client.subscription.update({
    where: { userId: shop.userId },
    data: { planId: plan.id, provider: "shopify", externalId: active.id, status: "active", cancelAtPeriodEnd: false, currentPeriodStart: start, currentPeriodEnd: end },
  });
  await client.shop.updateMany({ where: { shopDomain }, data: { planName: planType } });
  logger.info("shopify billing: plan active", { shop: shopDomain, userId: shop.userId, plan: planType, charge: active.id });
  return planType;
}

/**
 * app_subscriptions/update: an ACTIVE charge is applied; a charge that ended (cancelled, declined, expired,
 * frozen) reverts the account only if it is the charge the account is on (a replaced charge is cancelled
 * after its successor became active).
 */
export async function handleChargeUpdate(
  { shopDomain, charge }: { shopDomain: string; charge: ShopifyCharge },
  client: Prisma.TransactionClient,
) {
  if (charge.status === "ACTIVE") return { applied: await syncShopifyCharges({ shopDomain, charges: [charge] }, client) };
  const shop = await client.shop.findUnique({ where: { shopDomain }, select: { userId: true } });
  if (!shop?.userId) return { applied: null };
  const subscription = await client.subscription.findUnique({ where: { userId: shop.userId } });
  if (subscription?.provider === "shopify" && subscription.externalId === charge.id && charge.status !== "PENDING" && charge.status !== "ACCEPTED") {
    await revertToFree(client, shop.userId, shopDomain, `charge ${charge.status.toLowerCase()}`);
  }
  return { applied: null };
}

/** app/uninstalled: Shopify cancels the store's charges; the account it paid for goes back to free. */
export async function stopShopBilling({ shopDomain }: { shopDomain: string }, client: Prisma.TransactionClient) {
  const shop = await client.shop.findUnique({ where: { shopDomain }, select: { userId: true, planName: true } });
  if (!shop?.userId || !shop.planName) return { stopped: false };
  const subscription = await client.subscription.findUnique({ where: { userId: shop.userId } });
  if (subscription?.provider !== "shopify") return { stopped: false };
  await revertToFree(client, shop.userId, shopDomain, "app uninstalled");
  return { stopped: true };
}

/** The part of shopify-app-remix's `billing` context used here (a method, so the library's typed one fits). */
export interface BillingChecker {
  check(options: { plans?: ShopifyPlanName[]; isTest?: boolean }): Promise<{
    appSubscriptions: Array<{ id: string; name: string; status: string; currentPeriodEnd?: string | null }>;
  }>;
}

/** Shopify charges test charges outside production (dev stores cannot be charged anyway). */
export function isTestBilling() {
  return !env().isProduction;
}

/** Asks Shopify for the shop's charges (billing.check) and applies them. */
export async function refreshShopCharges({ billing, shopDomain }: { billing: BillingChecker; shopDomain: string }) {
  const { appSubscriptions } = await billing.check({ plans: Object.values(SHOPIFY_PLAN_NAMES), isTest: isTestBilling() });
  return syncShopifyCharges({ shopDomain, charges: appSubscriptions });
}

/**
 * Shopify renews a charge every 30 days without telling us; when the account's Shopify-paid period has run
 * out, ask again (one Admin API call), which moves the period on and grants the new period's credits.
 */
export async function refreshChargesIfPeriodEnded({ billing, shopDomain }: { billing: BillingChecker; shopDomain: string }) {
  const shop = await db().shop.findUnique({
    where: { shopDomain },
    select: { planName: true, user: { select: { subscription: { select: { provider: true, currentPeriodEnd: true } } } } },
  });
  const subscription = shop?.user?.subscription;
  if (!shop?.planName || subscription?.provider !== "shopify" || subscription.currentPeriodEnd > new Date()) return false;
  await refreshShopCharges({ billing, shopDomain });
  return true;
}
