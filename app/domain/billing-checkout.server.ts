import { z } from "zod";
import { db, type CreditType } from "~/db.server";
import { env } from "~/env.server";
import { CHECKOUT_FAILURES, isCheckoutFailure, type CheckoutFailure } from "~/lib/checkout-messages";
import { logger } from "~/lib/logger.server";
import { isEndedStripeStatus, PAID_PLAN_TYPES, type PaidPlanType } from "~/lib/stripe-objects";
import { AppError, isAppError } from "~/lib/errors";
import { ensureSubscription, LIVE_SUBSCRIPTION_STATUSES } from "./plans.server";
import { topupKeyOfCheckout } from "./stripe-billing.server";
import { isStripeConfigured, stripeClient } from "./stripe.server";

/**
 * Buying on the site (docs/decisions/009): Stripe Checkout for plan subscriptions and credit packages,
 * and Stripe's customer portal for payment methods, invoices and cancelling. Prices come from our Plan
 * and CreditPackage tables at the moment of checkout (inline price data), so the price shown is the
 * price charged. Nothing is granted here: the webhook does that once Stripe confirms the payment.
 */
export const CHECKOUT_PAGES = ["pricing", "topup"] as const;
export type CheckoutPage = (typeof CHECKOUT_PAGES)[number];

const intervalSchema = z.enum(["day", "week", "month", "year"]);
export const checkoutSessionIdSchema = z.string().regex(/^cs_[A-Za-z0-9_]{1,250}$/);

function appUrl(path: string) {
  return new URL(path, env().APP_URL).toString();
}

/** An expected refusal; `details.reason` is the code the pages show (app/lib/checkout-messages.ts). */
const refusal = (code: "conflict" | "not_found" | "payments_unavailable" | "payment_provider_error", reason: CheckoutFailure) =>
  new AppError(code, CHECKOUT_FAILURES[reason], { reason });

/** The reason code a page shows for an expected refusal; null for an unexpected error (rethrow it). */
export function checkoutFailureOf(error: unknown): CheckoutFailure | null {
  if (!isAppError(error)) return null;
  const reason = (error.details as { reason?: unknown } | undefined)?.reason;
  return isCheckoutFailure(reason) ? reason : "invalid";
}

/** Stripe's error, logged in full; the user sees a short, safe message. */
async function callStripe<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    logger.error(`stripe: ${what} failed`, { error });
    throw refusal("payment_provider_error", "provider_error");
  }
}

/** The account's Stripe customer, created on first checkout (one per account, even for parallel clicks). */
export async function ensureStripeCustomer({ userId }: { userId: string }): Promise<string> {
  const user = await db().user.findUniqueOrThrow({ where: { id: userId }, select: { id: true, email: true, displayName: true, stripeCustomerId: true } });
  if (user.stripeCustomerId) return user.stripeCustomerId;
  const customer = await callStripe("creating a customer", () =>
    stripeClient().customers.create(
      { email: user.email ?? undefined, name: user.displayName ?? undefined, metadata: { user_id: user.id } },
      // Stripe answers a repeated key with the first customer: two parallel first checkouts share one.
      { idempotencyKey: `scanroom-customer-${user.id}` },
    ),
  );
  await db().user.updateMany({ where: { id: userId, stripeCustomerId: null }, data: { stripeCustomerId: customer.id } });
  const saved = await db().user.findUniqueOrThrow({ where: { id: userId }, select: { stripeCustomerId: true } });
  return saved.stripeCustomerId!;
}

function requirePayments() {
  if (!isStripeConfigured()) throw refusal("payments_unavailable", "unavailable");
}

/** A Checkout Session for a plan subscription; answers the URL of Stripe's payment page. */
export async function createPlanCheckout({ userId, planType }: { userId: string; planType: PaidPlanType }): Promise<{ url: string }> {
  requirePayments();
  const plan = await db().plan.findFirst({ where: { planType, isActive: true } });
  if (!plan || plan.priceAmount <= 0) throw refusal("not_found", "not_found");
  await ensureSubscription({ userId });
  const current = await db().subscription.findUniqueOrThrow({ where: { userId }, include: { plan: true } });
  const live = LIVE_SUBSCRIPTION_STATUSES.has(current.status);
  if (live && current.provider === "shopify") throw refusal("conflict", "shopify_billed");
  if (live && current.provider === "stripe" && current.planId === plan.id) throw refusal("conflict", "already_on_plan");
  const interval = intervalSchema.parse(plan.interval);
  const customer = await ensureStripeCustomer({ userId });
  const session = await callStripe("creating a plan checkout", () =>
    stripeClient().checkout.sessions.create({
      mode: "subscription",
      customer,
      client_reference_id: userId,
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: plan.currency.toLowerCase(),
            unit_amount: plan.priceAmount,
            recurring: { interval },
            product_data: { name: `Scanroom ${plan.name}`, metadata: { plan_type: plan.planType } },
          },
        },
      ],
      subscription_data: { metadata: { user_id: userId, plan_type: plan.planType } },
      metadata: { kind: "plan", user_id: userId, plan_type: plan.planType },
      success_url: appUrl(`/pricing?checkout=success&plan=${plan.planType}&session_id={CHECKOUT_SESSION_ID}`),
      cancel_url: appUrl("/pricing?checkout=cancelled"),
    }),
  );
  if (!session.url) throw refusal("payment_provider_error", "provider_error");
  return { url: session.url };
}

/** A Checkout Session for a credit package (a one-off payment); answers the URL of Stripe's payment page. */
export async function createPackageCheckout({ userId, packageId }: { userId: string; packageId: string }): Promise<{ url: string }> {
  requirePayments();
  const pkg = await db().creditPackage.findFirst({ where: { id: packageId, isActive: true } });
  if (!pkg) throw refusal("not_found", "not_found");
  const customer = await ensureStripeCustomer({ userId });
  const metadata = { kind: "package", user_id: userId, package_id: pkg.id, credits: String(pkg.credits), credit_type: pkg.creditType };
  const session = await callStripe("creating a package checkout", () =>
    stripeClient().checkout.sessions.create({
      mode: "payment",
      customer,
      client_reference_id: userId,
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: pkg.currency.toLowerCase(),
            unit_amount: pkg.priceAmount,
            product_data: { name: `Scanroom ${pkg.name}`, description: `${pkg.credits} ${pkg.creditType} credits that carry over from month to month` },
          },
        },
      ],
      metadata,
      payment_intent_data: { metadata },
      success_url: appUrl("/topup?checkout=success&session_id={CHECKOUT_SESSION_ID}"),
      cancel_url: appUrl("/topup?checkout=cancelled"),
    }),
  );
  if (!session.url) throw refusal("payment_provider_error", "provider_error");
  return { url: session.url };
}

/** Stripe's customer portal (payment methods, invoices, cancelling) for an account that has paid before. */
export async function createBillingPortalSession({ userId }: { userId: string }): Promise<{ url: string }> {
  requirePayments();
  const user = await db().user.findUniqueOrThrow({ where: { id: userId }, select: { stripeCustomerId: true } });
  if (!user.stripeCustomerId) throw refusal("conflict", "no_billing_account");
  const session = await callStripe("opening the customer portal", () =>
    stripeClient().billingPortal.sessions.create({ customer: user.stripeCustomerId!, return_url: appUrl("/settings") }),
  );
  return { url: session.url };
}

export type CheckoutOutcome =
  | { state: "complete"; message: string }
  | { state: "pending"; message: string };

const PENDING = "Thank you! We are waiting for Stripe to confirm your payment; this page updates by itself.";

/**
 * What the page a checkout returns to says: complete once the webhook applied the payment, pending
 * until then. Scoped to the signed-in user: another user's session id shows nothing of theirs.
 */
export async function getCheckoutOutcome(input: { userId: string; sessionId: string; planType?: string | null }): Promise<CheckoutOutcome | null> {
  if (!checkoutSessionIdSchema.safeParse(input.sessionId).success) return null;
  if (input.planType) {
    const planType = z.enum(PAID_PLAN_TYPES).safeParse(input.planType);
    if (!planType.success) return null;
    const subscription = await db().subscription.findUnique({ where: { userId: input.userId }, include: { plan: true } });
    const done = subscription?.provider === "stripe" && LIVE_SUBSCRIPTION_STATUSES.has(subscription.status) && subscription.plan.planType === planType.data;
    return done ? { state: "complete", message: `Payment confirmed: you are now on the ${subscription.plan.name} plan.` } : { state: "pending", message: PENDING };
  }
  const entry = await db().ledgerEntry.findFirst({
    where: { userId: input.userId, idempotencyKey: topupKeyOfCheckout(input.sessionId) },
    select: { amount: true, creditType: true },
  });
  if (!entry) return { state: "pending", message: PENDING };
  return { state: "complete", message: `Payment confirmed: ${entry.amount} ${creditNoun(entry.creditType, entry.amount)} added to your account.` };
}

const creditNoun = (type: CreditType, n: number) => `${type} ${n === 1 ? "credit" : "credits"}`;

/**
 * When an account is deleted, its Stripe subscription is cancelled first, so nobody is charged for an
 * account that no longer exists. A failure stops the deletion (the user can try again).
 */
export async function cancelStripeBillingOfAccount({ userId }: { userId: string }): Promise<boolean> {
  const subscription = await db().subscription.findUnique({ where: { userId }, select: { provider: true, externalId: true } });
  if (subscription?.provider !== "stripe" || !subscription.externalId || !env().STRIPE_SECRET_KEY) return false;
  const id = subscription.externalId;
  await callStripe("cancelling the subscription of a deleted account", async () => {
    const stripe = stripeClient();
    const current = await stripe.subscriptions.retrieve(id);
    if (!isEndedStripeStatus(current.status)) await stripe.subscriptions.cancel(id);
  });
  return true;
}
