import { getPageUser } from "~/auth/require-user.server";
import { getBillingOverview } from "~/domain/billing-overview.server";
import { getCheckoutOutcome } from "~/domain/billing-checkout.server";
import { presentCreditPackage, presentPlan } from "~/domain/plan-presenter";
import { listCreditPackages, listPlans } from "~/domain/plans.server";
import { isStripeConfigured } from "~/domain/stripe.server";
import { CHECKOUT_CANCELLED, checkoutFailureMessage } from "../lib/checkout-messages";

/**
 * What /pricing and /topup show: plans and credit packages from the database, the visitor's billing,
 * whether online checkout is configured, and the outcome of a checkout the visitor returns from.
 */
export async function loadPlansPage(request: Request) {
  const user = await getPageUser(request);
  const [plans, packages, billing] = await Promise.all([listPlans(), listCreditPackages(), user ? getBillingOverview({ userId: user.id }) : null]);
  return {
    plans: plans.map(presentPlan),
    packages: packages.map(presentCreditPackage),
    currentPlanId: billing?.subscribed_plan.id ?? null,
    signedIn: user !== null,
    billing,
    payments: { enabled: isStripeConfigured() },
    checkout: await checkoutStatus(request, user?.id ?? null),
  };
}
export type PlansPageData = Awaited<ReturnType<typeof loadPlansPage>>;

type CheckoutStatus = { state: "complete" | "pending" | "failed" | "cancelled"; message: string } | null;

async function checkoutStatus(request: Request, userId: string | null): Promise<CheckoutStatus> {
  const params = new URL(request.url).searchParams;
  const checkout = params.get("checkout");
  if (checkout === "cancelled") return { state: "cancelled", message: CHECKOUT_CANCELLED };
  if (checkout === "failed") {
    const message = checkoutFailureMessage(params.get("reason"));
    return message ? { state: "failed", message } : null;
  }
  if (checkout === "success" && userId) {
    return getCheckoutOutcome({ userId, sessionId: params.get("session_id") ?? "", planType: params.get("plan") });
  }
  return null;
}
