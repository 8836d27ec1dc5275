import { db } from "~/db.server";
import { getUserQuotas } from "./credits.server";

/**
 * What a merchant sees about a store, in the embedded admin (/app) and on the site (/shopify/dashboard):
 * which Scanroom account it is connected to, that account's plan and usage, and the store's link count.
 */
export async function getShopDashboard({ shopDomain }: { shopDomain: string }) {
  const shop = await db().shop.findUnique({
    where: { shopDomain },
    select: {
      userId: true,
      planName: true,
      installedAt: true,
      user: { select: { email: true, displayName: true } },
      _count: { select: { links: true } },
    },
  });
  const base = {
    shopDomain,
    installedAt: shop?.installedAt.toISOString() ?? null,
    linkCount: shop?._count.links ?? 0,
    paidThroughThisStore: shop?.planName ?? null,
  };
  if (!shop?.userId) return { ...base, account: null };
  return { ...base, account: await getAccountSummary({ userId: shop.userId, label: shop.user?.email ?? shop.user?.displayName ?? null }) };
}

/** The plan and usage of a connected account: product links across all its stores, and scan credits. */
export async function getAccountSummary({ userId, label }: { userId: string; label: string | null }) {
  const quotas = await getUserQuotas({ userId });
  const [subscription, linksUsed] = await Promise.all([
    db().subscription.findUniqueOrThrow({ where: { userId }, include: { plan: true } }),
    db().productModelLink.count({ where: { shop: { userId } } }),
  ]);
  return {
    label,
    plan: {
      type: subscription.plan.planType,
      name: subscription.plan.name,
      provider: subscription.provider,
      currentPeriodEnd: subscription.currentPeriodEnd.toISOString(),
    },
    usage: {
      linksUsed,
      linkQuota: quotas.link_quota,
      scanCredits: quotas.total_scan_credit,
      scanQuota: quotas.scan_quota,
    },
  };
}
