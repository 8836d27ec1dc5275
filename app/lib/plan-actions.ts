/**
 * What each plan card offers the visitor (pricing and top-up pages). Pure, so every combination of plan,
 * billing and sign-in state is unit-tested; the component only renders the decision.
 */
export interface PlanCardBilling {
  subscribedPlanId: string;
  provider: "none" | "stripe" | "shopify";
  live: boolean;
  canManageBilling: boolean;
}

export type PlanCardAction =
  | { type: "current" }
  | { type: "sign_in"; label: string }
  | { type: "checkout"; label: string }
  | { type: "portal"; label: string }
  | { type: "unavailable"; label: string }
  | { type: "note"; text: string }
  | { type: "none" };

export function planCardAction(input: {
  plan: { id: string; name: string; priceAmount: number };
  billing: PlanCardBilling | null;
  paymentsEnabled: boolean;
}): PlanCardAction {
  const { plan, billing, paymentsEnabled } = input;
  const free = input.plan.priceAmount === 0;
  if (billing && billing.subscribedPlanId === plan.id && billing.live) return { type: "current" };
  if (!paymentsEnabled) return free ? { type: "none" } : { type: "unavailable", label: `Choose ${plan.name} — checkout not available yet` };
  if (!billing) return free ? { type: "none" } : { type: "sign_in", label: `Sign in to choose ${plan.name}` };
  if (billing.live && billing.provider === "shopify") return { type: "note", text: "Your plan is billed through Shopify." };
  if (free) {
    // Going back to free is cancelling the paid plan (at the end of the paid period), in Stripe's portal.
    return billing.provider === "stripe" && billing.canManageBilling ? { type: "portal", label: "Cancel your plan in the billing portal" } : { type: "none" };
  }
  const switching = billing.live && billing.provider === "stripe";
  return { type: "checkout", label: `${switching ? "Switch to" : "Choose"} ${plan.name}` };
}
