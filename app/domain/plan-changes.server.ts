import type { Plan, Prisma, SubscriptionProvider } from "~/db.server";
import { planChangeNotice, type PlanChangeCause } from "~/lib/plan-allowances";
import { notify } from "./notifications.server";
import { presentPlan } from "./plan-presenter";
import { LIVE_SUBSCRIPTION_STATUSES } from "./plans.server";

type Tx = Prisma.TransactionClient;

/**
 * Moves an account's subscription to a new state (a payment provider's report, or a lapse back to free)
 * inside the caller's transaction, holding the user's row lock like the credit ledger does. Nothing the
 * user made is touched: the ledger brings this period's allowance to the new plan on its next read
 * (credits.server.ts, settlePeriodAllowances) and a new period is granted when it starts.
 * When the plan in force changes, the user is told what the new plan allows (issue 8).
 */
export interface SubscriptionState {
  planId: string;
  provider: SubscriptionProvider;
  externalId: string | null;
  status: string;
  period: { start: Date; end: Date };
  cancelAtPeriodEnd: boolean;
}

export async function lockUser(tx: Tx, userId: string): Promise<boolean> {
  const rows = await tx.$queryRaw<Array<{ id: string }>>`SELECT id FROM "User" WHERE id = ${userId}::uuid FOR UPDATE`;
  return rows.length === 1;
}

async function planInForce(tx: Tx, subscription: { status: string; plan: Plan }): Promise<Plan> {
  return LIVE_SUBSCRIPTION_STATUSES.has(subscription.status) ? subscription.plan : tx.plan.findUniqueOrThrow({ where: { planType: "free" } });
}

/** Applies `next`; answers whether anything changed and the plans in force before and after. Call with the user locked. */
export async function setSubscriptionState(
  tx: Tx,
  { userId, next, cause }: { userId: string; next: SubscriptionState; cause: PlanChangeCause },
): Promise<{ changed: boolean; before: Plan; after: Plan }> {
  const current = await tx.subscription.findUniqueOrThrow({ where: { userId }, include: { plan: true } });
  const before = await planInForce(tx, current);
  const same =
    current.planId === next.planId &&
    current.provider === next.provider &&
    current.externalId === next.externalId &&
    current.status === next.status &&
    current.cancelAtPeriodEnd === next.cancelAtPeriodEnd &&
    current.currentPeriodStart.getTime() === next.period.start.getTime() &&
    current.currentPeriodEnd.getTime() === next.period.end.getTime();
  if (same) return { changed: false, before, after: before };
  const updated = await tx.subscription.update({
    where: { userId },
    data: {
      planId: next.planId,
      provider: next.provider,
      externalId: next.externalId,
      status: next.status,
      cancelAtPeriodEnd: next.cancelAtPeriodEnd,
      currentPeriodStart: next.period.start,
      currentPeriodEnd: next.period.end,
    },
    include: { plan: true },
  });
  const after = await planInForce(tx, updated);
  if (after.id !== before.id) {
    const notice = planChangeNotice({ from: presentPlan(before), to: presentPlan(after), cause });
    await notify({ userId, kind: "plan_changed", title: notice.title, body: notice.body, link: "/settings" }, tx);
  }
  return { changed: true, before, after };
}
