import { db } from "~/db.server";

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
  return db().subscription.upsert({
    where: { userId },
    create: { userId, planId: free.id, currentPeriodStart: start, currentPeriodEnd: addOneMonth(start) },
    update: {},
  });
}

export async function listPlans() {
  return db().plan.findMany({ where: { isActive: true }, orderBy: { sortOrder: "asc" } });
}

export async function listCreditPackages() {
  return db().creditPackage.findMany({ where: { isActive: true }, orderBy: [{ creditType: "asc" }, { sortOrder: "asc" }] });
}
