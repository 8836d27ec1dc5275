import { describe, expect, it } from "vitest";
import { planCardAction, type PlanCardBilling } from "./plan-actions";

const free = { id: "free", name: "Free", priceAmount: 0 };
const starter = { id: "starter", name: "Starter", priceAmount: 9 };
const growth = { id: "growth", name: "Growth", priceAmount: 29 };
const onFree: PlanCardBilling = { subscribedPlanId: "free", provider: "none", live: true, canManageBilling: false };
const onStarter: PlanCardBilling = { subscribedPlanId: "starter", provider: "stripe", live: true, canManageBilling: true };

describe("planCardAction", () => {
  it("without payments configured, says so on paid plans and never offers a checkout", () => {
    expect(planCardAction({ plan: starter, billing: onFree, paymentsEnabled: false })).toEqual({ type: "unavailable", label: "Choose Starter — checkout not available yet" });
    expect(planCardAction({ plan: free, billing: null, paymentsEnabled: false })).toEqual({ type: "none" });
  });

  it("asks visitors to sign in, marks the plan in force, and offers checkout for the others", () => {
    expect(planCardAction({ plan: starter, billing: null, paymentsEnabled: true })).toEqual({ type: "sign_in", label: "Sign in to choose Starter" });
    expect(planCardAction({ plan: free, billing: onFree, paymentsEnabled: true })).toEqual({ type: "current" });
    expect(planCardAction({ plan: growth, billing: onFree, paymentsEnabled: true })).toEqual({ type: "checkout", label: "Choose Growth" });
  });

  it("offers a Stripe subscriber a switch, and Free through cancelling in the portal", () => {
    expect(planCardAction({ plan: starter, billing: onStarter, paymentsEnabled: true })).toEqual({ type: "current" });
    expect(planCardAction({ plan: growth, billing: onStarter, paymentsEnabled: true })).toEqual({ type: "checkout", label: "Switch to Growth" });
    expect(planCardAction({ plan: free, billing: onStarter, paymentsEnabled: true })).toEqual({ type: "portal", label: "Cancel your plan in the billing portal" });
  });

  it("lets a lapsed subscriber choose again, and leaves Shopify-billed plans to Shopify", () => {
    const lapsed = { ...onStarter, live: false };
    expect(planCardAction({ plan: starter, billing: lapsed, paymentsEnabled: true })).toEqual({ type: "checkout", label: "Choose Starter" });
    const shopify: PlanCardBilling = { subscribedPlanId: "growth", provider: "shopify", live: true, canManageBilling: false };
    expect(planCardAction({ plan: starter, billing: shopify, paymentsEnabled: true })).toEqual({ type: "note", text: "Your plan is billed through Shopify." });
    expect(planCardAction({ plan: growth, billing: shopify, paymentsEnabled: true })).toEqual({ type: "current" });
  });
});
