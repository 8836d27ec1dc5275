import { db, type Plan } from "~/db.server";
import { keptUntilChanged } from "~/lib/kept-until-changed.server";

/** Adds one calendar month, clamping to the last day (Jan 31 → Feb 28/29). */
export function addOneMonth(date: Date): Date {
  const next = new Date(date);
  const day = next.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, lastDay));
  return next;
}

/** Every user has a subscription; new users start on the free plan. Safe to call repeatedly. */
export async function ensureSubscription({ userId }: { userId: string }) {
  const existing = await db().subscription.findUnique({ where: { userId } });
  if (existing) return existing;
  const free = await db().plan.findUnique({ where: { planType: "free" } });
  if (!free) throw new Error("The free plan is missing: run the seed (npm run db:seed)");
  const start = new Date();
  // Parallel first requests of a new user race here: a plain insert that skips on conflict (Prisma's
  // upsert is a read-then-write and can fail with a unique violation), then read the winner's row.
  await db().subscription.createMany({
    data: { userId, planId: free.id, currentPeriodStart: start, currentPeriodEnd: addOneMonth(start) },
    skipDuplicates: true,
  });
  return db().subscription.findUniqueOrThrow({ where: { userId } });
}

/** Subscription statuses under which the subscribed plan is in force; any other means the plan lapsed. */
export const LIVE_SUBSCRIPTION_STATUSES: ReadonlySet<string> = new Set(["active", "trialing"]);

/**
 * Each owner's plan in force as their models' signed-out visitors see it (the watermark), kept until a change names
 * the owner (their subscription) or every plan (docs/decisions/066-public-item-records-kept-until-changed.md).
 */
const plansShownToVisitors = keptUntilChanged<Plan>({ shows: (_plan, userId) => [`user:${userId}`] });

async function readPlanInForce(userId: string): Promise<Plan> {
  const subscription = await db().subscription.findUnique({ where: { userId }, include: { plan: true } });
  if (subscription && LIVE_SUBSCRIPTION_STATUSES.has(subscription.status)) return subscription.plan;
  return db().plan.findUniqueOrThrow({ where: { planType: "free" } });
}

/**
 * The plan in force for a user: the subscribed one while the subscription is live, the free plan once it lapsed.
 * `signedOutReader`: what a signed-out visitor of the user's models is shown by, read from the kept plans.
 */
export async function getPlanInForce({ userId, signedOutReader = false }: { userId: string; signedOutReader?: boolean }): Promise<Plan> {
  return signedOutReader ? (await plansShownToVisitors.read(userId, () => readPlanInForce(userId)))! : readPlanInForce(userId);
}

export async function listPlans() {
  return db().plan.findMany({ where: { isActive: true }, orderBy: { sortOrder: "asc" } });
}

export async function listCreditPackages() {
  return db().creditPackage.findMany({ where: { isActive: true }, orderBy: [{ creditType: "asc" }, { sortOrder: "asc" }] });
}
