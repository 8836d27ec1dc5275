import { describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { checkoutFailureMessage } from "./checkout-messages";
import { isEndedStripeStatus, readCheckoutSession, readStripeSubscription, subscriptionOfInvoice } from "./stripe-objects";

const userId = "6f1d6c1e-8f9a-4b61-9a57-0c3f8d7f2a10";
const packageId = "0b6a4c8e-2f1d-4e3a-8b9c-1d2e3f4a5b6c";
const subscription = {
  id: "sub_1Abc",
  object: "subscription",
  customer: "cus_9Xyz",
  status: "active",
  cancel_at_period_end: false,
  metadata: { user_id: userId, plan_type: "growth" },
  items: { object: "list", data: [{ id: "si_1", current_period_start: 1_790_000_000, current_period_end: 1_792_592_000 }] },
};

describe("readStripeSubscription", () => {
  it("reads the account, plan, status and the billing period from the subscription's items", () => {
    expect(readStripeSubscription(subscription)).toEqual({
      id: "sub_1Abc",
      customerId: "cus_9Xyz",
      userId,
      planType: "growth",
      status: "active",
      ended: false,
      cancelAtPeriodEnd: false,
      period: { start: new Date(1_790_000_000_000), end: new Date(1_792_592_000_000) },
    });
    expect(readStripeSubscription({ ...subscription, customer: { id: "cus_9Xyz", object: "customer" }, status: "canceled" })).toMatchObject({
      customerId: "cus_9Xyz",
      ended: true,
    });
  });

  it("refuses subscriptions our checkout did not make, and unknown plans", () => {
    expect(() => readStripeSubscription({ ...subscription, metadata: {} })).toThrow(ZodError);
    expect(() => readStripeSubscription({ ...subscription, metadata: { user_id: userId, plan_type: "free" } })).toThrow(ZodError);
    expect(() => readStripeSubscription({ ...subscription, items: { data: [] } })).toThrow(ZodError);
    expect(() => readStripeSubscription({ ...subscription, id: "evil id" })).toThrow(ZodError);
  });

  it("knows which statuses can never come back", () => {
    expect(["canceled", "incomplete_expired"].map(isEndedStripeStatus)).toEqual([true, true]);
    expect(["active", "trialing", "past_due", "unpaid", "incomplete", "paused"].some(isEndedStripeStatus)).toBe(false);
  });
});

describe("readCheckoutSession", () => {
  const session = {
    id: "cs_test_a1",
    object: "checkout.session",
    mode: "payment",
    payment_status: "paid",
    customer: "cus_9Xyz",
    subscription: null,
    metadata: { kind: "package", user_id: userId, package_id: packageId, credits: "5", credit_type: "scan" },
  };

  it("reads a package purchase with its credits as a number", () => {
    expect(readCheckoutSession(session).metadata).toEqual({ kind: "package", user_id: userId, package_id: packageId, credits: 5, credit_type: "scan" });
  });

  it("reads a plan purchase and its subscription", () => {
    const plan = readCheckoutSession({ ...session, mode: "subscription", subscription: "sub_1Abc", metadata: { kind: "plan", user_id: userId, plan_type: "pro" } });
    expect(plan).toMatchObject({ subscription: "sub_1Abc", metadata: { kind: "plan", plan_type: "pro" } });
  });

  it("refuses sessions without our metadata or with impossible credits", () => {
    expect(() => readCheckoutSession({ ...session, metadata: {} })).toThrow(ZodError);
    expect(() => readCheckoutSession({ ...session, metadata: { ...session.metadata, credits: "-5" } })).toThrow(ZodError);
    expect(() => readCheckoutSession({ ...session, metadata: { ...session.metadata, credit_type: "gold" } })).toThrow(ZodError);
  });
});

describe("subscriptionOfInvoice", () => {
  it("finds the subscription in both invoice shapes, and nothing in a one-off invoice", () => {
    expect(subscriptionOfInvoice({ parent: { subscription_details: { subscription: "sub_1Abc" } } })).toBe("sub_1Abc");
    expect(subscriptionOfInvoice({ subscription: "sub_2Def" })).toBe("sub_2Def");
    expect(subscriptionOfInvoice({ parent: null })).toBeNull();
  });
});

describe("checkoutFailureMessage", () => {
  it("maps known reason codes to messages and nothing else", () => {
    expect(checkoutFailureMessage("already_on_plan")).toBe("You are already on this plan.");
    expect(checkoutFailureMessage("<script>")).toBeNull();
    expect(checkoutFailureMessage("toString")).toBeNull();
    expect(checkoutFailureMessage(null)).toBeNull();
  });
});
