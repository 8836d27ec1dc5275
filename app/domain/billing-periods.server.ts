import { db } from "~/db.server";
import { logger } from "~/lib/logger.server";
import { withCreditLedger } from "./credits.server";
import { LIVE_SUBSCRIPTION_STATUSES } from "./plans.server";
import { syncStripeSubscription } from "./stripe-billing.server";
import { isStripeConfigured } from "./stripe.server";

/**
 * The billing-period reset, run by the scheduled job (app/jobs/billing-schedule.server.ts) and safe to
 * run any number of times, also at once:
 * - plans without a payment provider (free, or set by an admin) renew monthly from the subscription's
 *   start: the ledger moves the period on, writes the new period's grant (idempotent by its key) and
 *   records what lapsed. The same happens lazily on a user's next read; the job makes it happen for
 *   everybody, and in time;
 * - a Stripe subscription still live whose period ended over an hour ago without a webhook moving it
 *   is synced from Stripe (a missed or failed delivery). Shopify renewals are pulled by the Shopify
 *   admin (docs/decisions/007).
 */
const BATCH = 100;
const STRIPE_GRACE_MS = 60 * 60 * 1000;

export async function renewDueBillingPeriods({ now = new Date() }: { now?: Date } = {}): Promise<{ renewed: number; synced: number; failed: number }> {
  let renewed = 0;
  let failed = 0;
  let after: string | undefined;
  for (;;) {
    const due = await db().subscription.findMany({
      where: { provider: "none", currentPeriodEnd: { lte: now }, ...(after ? { userId: { gt: after } } : {}) },
      select: { userId: true },
      orderBy: { userId: "asc" },
      take: BATCH,
    });
    if (due.length === 0) break;
    for (const { userId } of due) {
      try {
        await withCreditLedger(userId, async () => undefined);
        renewed++;
      } catch (error) {
        failed++;
        logger.error("billing period renewal failed", { userId, error });
      }
    }
    after = due[due.length - 1].userId;
  }

  let synced = 0;
  if (isStripeConfigured()) {
    const stale = await db().subscription.findMany({
      where: { provider: "stripe", externalId: { not: null }, status: { in: [...LIVE_SUBSCRIPTION_STATUSES] }, currentPeriodEnd: { lte: new Date(now.getTime() - STRIPE_GRACE_MS) } },
      select: { userId: true, externalId: true },
      take: 500,
    });
    for (const { userId, externalId } of stale) {
      try {
        await syncStripeSubscription({ subscriptionId: externalId! });
        synced++;
      } catch (error) {
        failed++;
        logger.error("stripe subscription sync failed", { userId, subscriptionId: externalId, error });
      }
    }
  }
  if (renewed || synced || failed) logger.info("billing periods renewed", { renewed, synced, failed });
  return { renewed, synced, failed };
}
