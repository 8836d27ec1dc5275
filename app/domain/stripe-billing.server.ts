import type Stripe from "stripe";
import { ZodError } from "zod";
import { db } from "~/db.server";
import { logger } from "~/lib/logger.server";
import {
  isEndedStripeStatus,
  readCheckoutSession,
  readStripeSubscription,
  subscriptionOfInvoice,
  type StripeCheckoutSession,
  type StripeSubscriptionState,
} from "~/lib/stripe-objects";
import { addMonths } from "./calendar-months";
import { addTopupCredits } from "./credits.server";
import { lockUser, setSubscriptionState, type SubscriptionState } from "./plan-changes.server";
import { ensureSubscription, LIVE_SUBSCRIPTION_STATUSES } from "./plans.server";
import { stripeClient, verifyStripeEvent } from "./stripe.server";

/**
 * Stripe's side of billing (docs/decisions/009): webhooks, verified by signature and handled once per
 * event id, change plans and grant credits only on what Stripe confirms. Subscriptions are synced from
 * Stripe's current state (retrieved, not taken from the event), so events arriving late or out of order
 * cannot roll a plan back. Every effect is idempotent on its own (top-ups by checkout session, plans by
 * state), so a crash between the effect and the event marker only repeats a no-op.
 */
const CHECKOUT_EVENTS = new Set(["checkout.session.completed", "checkout.session.async_payment_succeeded"]);
const SUBSCRIPTION_EVENTS = new Set([
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "customer.subscription.paused",
  "customer.subscription.resumed",
]);
const INVOICE_EVENTS = new Set(["invoice.paid", "invoice.payment_failed"]);

/** Stripe calls made while a user's row is locked: short, so the lock is never held long. */
const LOCKED_CALL = { timeout: 10_000, maxNetworkRetries: 1 };

export type WebhookOutcome = { duplicate: true; type: string } | { duplicate: false; type: string };

export async function handleStripeWebhook({ rawBody, signature }: { rawBody: string; signature: string | null }): Promise<WebhookOutcome> {
  const event = verifyStripeEvent({ rawBody, signature });
  const markerId = `stripe:${event.id}`;
  if (await db().webhookEvent.findUnique({ where: { id: markerId }, select: { id: true } })) {
    logger.info("stripe webhook already handled", { eventId: event.id, type: event.type });
    return { duplicate: true, type: event.type };
  }
  await applyStripeEvent(event);
  await db().webhookEvent.createMany({ data: [{ id: markerId, source: "stripe", topic: event.type }], skipDuplicates: true });
  return { duplicate: false, type: event.type };
}

async function applyStripeEvent(event: Stripe.Event) {
  const object: unknown = event.data.object;
  if (CHECKOUT_EVENTS.has(event.type)) {
    const session = readOurs(() => readCheckoutSession(object), event);
    if (session) await applyCheckoutSession(session);
  } else if (SUBSCRIPTION_EVENTS.has(event.type)) {
    const id = (object as { id?: unknown }).id;
    if (typeof id === "string") await syncStripeSubscription({ subscriptionId: id });
  } else if (INVOICE_EVENTS.has(event.type)) {
    const id = subscriptionOfInvoice(object);
    if (id) await syncStripeSubscription({ subscriptionId: id });
  }
  // Any other event is acknowledged and has no effect.
}

/** Objects our checkout did not make (no or other metadata) are acknowledged and ignored. */
function readOurs<T>(read: () => T, context: { id: string; type?: string }): T | null {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof ZodError)) throw error;
    logger.warn("stripe object not made by Scanroom's checkout: ignored", { id: context.id, type: context.type, issues: error.issues.slice(0, 3) });
    return null;
  }
}

/** The account a Stripe object belongs to, when its customer is that account's customer. */
async function accountOf({ userId, customerId }: { userId: string; customerId: string | null }) {
  const user = await db().user.findUnique({ where: { id: userId }, select: { id: true, stripeCustomerId: true } });
  if (!user || !customerId || user.stripeCustomerId !== customerId) {
    logger.warn("stripe object for an unknown account or another customer: ignored", { userId, customerId });
    return null;
  }
  return user;
}

async function applyCheckoutSession(session: StripeCheckoutSession) {
  const { metadata } = session;
  if (metadata.kind === "plan") {
    if (session.subscription) await syncStripeSubscription({ subscriptionId: session.subscription });
    return;
  }
  // A delayed payment method completes the session unpaid; checkout.session.async_payment_succeeded follows.
  if (session.payment_status !== "paid") return;
  const user = await accountOf({ userId: metadata.user_id, customerId: session.customer });
  if (!user) return;
  const pkg = await db().creditPackage.findUnique({ where: { id: metadata.package_id }, select: { name: true } });
  // The credits bought are the ones the session was made for, even if the package changed since.
  await addTopupCredits({
    userId: user.id,
    creditType: metadata.credit_type,
    credits: metadata.credits,
    reason: `Bought ${pkg?.name ?? `${metadata.credits} ${metadata.credit_type} credits`} (Stripe payment)`,
    reference: `stripe:${session.id}`,
    idempotencyKey: topupKeyOfCheckout(session.id),
  });
}

/** The ledger key of the top-up a package checkout grants (the success page looks it up). */
export const topupKeyOfCheckout = (sessionId: string) => `topup:stripe:${sessionId}`;

/** Asks Stripe for the subscription's current state and applies it to the account it was bought for. */
export async function syncStripeSubscription({ subscriptionId }: { subscriptionId: string }) {
  const raw = await stripeClient().subscriptions.retrieve(subscriptionId);
  const state = readOurs(() => readStripeSubscription(raw), { id: subscriptionId });
  if (state) await applyStripeSubscription(state);
}

/** Cancels a subscription the account replaced by a new one, crediting its unused time to the customer. */
async function cancelReplacedSubscription(subscriptionId: string) {
  const stripe = stripeClient();
  const old = await stripe.subscriptions.retrieve(subscriptionId, {}, LOCKED_CALL);
  if (isEndedStripeStatus(old.status)) return;
  await stripe.subscriptions.cancel(subscriptionId, { prorate: true, invoice_now: true }, { ...LOCKED_CALL, idempotencyKey: `scanroom-replace-${subscriptionId}` });
  logger.info("stripe subscription replaced by a new one: cancelled with proration", { subscriptionId });
}

export async function applyStripeSubscription(state: StripeSubscriptionState): Promise<"applied" | "unchanged" | "ignored"> {
  const user = await accountOf({ userId: state.userId, customerId: state.customerId });
  if (!user) return "ignored";
  await ensureSubscription({ userId: user.id });
  const [plan, free] = await Promise.all([
    db().plan.findUniqueOrThrow({ where: { planType: state.planType } }),
    db().plan.findUniqueOrThrow({ where: { planType: "free" } }),
  ]);
  const live = LIVE_SUBSCRIPTION_STATUSES.has(state.status);
  const stripeState: SubscriptionState = {
    planId: plan.id,
    provider: "stripe",
    externalId: state.id,
    status: state.status,
    period: state.period,
    cancelAtPeriodEnd: state.cancelAtPeriodEnd,
  };
  return db().$transaction(
    async (tx) => {
      await lockUser(tx, user.id);
      const current = await tx.subscription.findUniqueOrThrow({ where: { userId: user.id } });
      const isCurrent = current.provider === "stripe" && current.externalId === state.id;
      if (!isCurrent && !live) return "ignored"; // a replaced, ended or never-paid subscription
      if (isCurrent && state.ended) {
        // Back to free, from now: a new monthly period with the free plan's grant.
        const start = new Date();
        const next: SubscriptionState = { planId: free.id, provider: "none", externalId: null, status: "active", period: { start, end: addMonths(start, 1) }, cancelAtPeriodEnd: false };
        await setSubscriptionState(tx, { userId: user.id, next, cause: "ended" });
        return "applied";
      }
      if (!isCurrent && current.provider === "stripe" && current.externalId) await cancelReplacedSubscription(current.externalId);
      if (!isCurrent && current.provider === "shopify") logger.warn("a Stripe plan replaces a Shopify-billed one", { userId: user.id, subscription: state.id });
      const { changed } = await setSubscriptionState(tx, { userId: user.id, next: stripeState, cause: live ? "subscribed" : "renewal_failed" });
      return changed ? "applied" : "unchanged";
    },
    { maxWait: 30_000, timeout: 60_000 },
  );
}
