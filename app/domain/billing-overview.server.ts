import { db } from "~/db.server";
import { presentPlan } from "./plan-presenter";
import { ensureSubscription, LIVE_SUBSCRIPTION_STATUSES } from "./plans.server";
import { isStripeConfigured } from "./stripe.server";

/**
 * The signed-in user's billing as the pricing, top-up and settings pages show it: the plan subscribed
 * to, the plan in force (free while a payment is overdue), who bills it, and whether Stripe's customer
 * portal can be opened.
 */
export async function getBillingOverview({ userId }: { userId: string }) {
  await ensureSubscription({ userId });
  const [subscription, user, free] = await Promise.all([
    db().subscription.findUniqueOrThrow({ where: { userId }, include: { plan: true } }),
    db().user.findUniqueOrThrow({ where: { id: userId }, select: { stripeCustomerId: true } }),
    db().plan.findUniqueOrThrow({ where: { planType: "free" } }),
  ]);
  const live = LIVE_SUBSCRIPTION_STATUSES.has(subscription.status);
  return {
    subscribed_plan: presentPlan(subscription.plan),
    plan_in_force: presentPlan(live ? subscription.plan : free),
    provider: subscription.provider,
    status: subscription.status,
    live,
    cancel_at_period_end: subscription.cancelAtPeriodEnd,
    current_period_start: subscription.currentPeriodStart.toISOString(),
    current_period_end: subscription.currentPeriodEnd.toISOString(),
    can_manage_billing: Boolean(user.stripeCustomerId) && isStripeConfigured(),
  };
}
export type BillingOverview = Awaited<ReturnType<typeof getBillingOverview>>;
