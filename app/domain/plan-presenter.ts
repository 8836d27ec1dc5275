import type { CreditPackage, Plan } from "~/db.server";

/** Prices are stored in minor units; `amount` is in major units (9 = $9.00), `formatted` for display. */
export function formatPrice(amountMinor: number, currency: string): string {
  return new Intl.NumberFormat("en-US", {
    style: "currency",
    currency,
    minimumFractionDigits: amountMinor % 100 === 0 ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(amountMinor / 100);
}

/** SPEC §3 plan shape. A quota of -1 means unlimited. */
export function presentPlan(plan: Plan) {
  return {
    id: plan.id,
    name: plan.name,
    plan_type: plan.planType,
    stw_plan_id: plan.stwPlanId,
    scan_quota: plan.scanQuota,
    link_quota: plan.linkQuota,
    annotation_quota: plan.annotationQuota,
    embed_quota: plan.embedQuota,
    watermark_removal: plan.watermarkRemoval,
    price: {
      amount: plan.priceAmount / 100,
      currency: plan.currency,
      formatted: formatPrice(plan.priceAmount, plan.currency),
      interval: plan.interval,
    },
  };
}
export type PlanDto = ReturnType<typeof presentPlan>;

/** SPEC §3 credit package shape. */
export function presentCreditPackage(pkg: CreditPackage) {
  return {
    id: pkg.id,
    name: pkg.name,
    credits: pkg.credits,
    credit_type: pkg.creditType,
    price: { amount: pkg.priceAmount / 100, currency: pkg.currency, formatted: formatPrice(pkg.priceAmount, pkg.currency) },
  };
}
export type CreditPackageDto = ReturnType<typeof presentCreditPackage>;
