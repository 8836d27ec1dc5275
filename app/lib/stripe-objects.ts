import { z } from "zod";

/**
 * The fields of Stripe's objects that Scanroom reads (STYLE habit 3: zod at every boundary), with the
 * metadata we put on them when creating a checkout (app/domain/billing-checkout.server.ts). Pure, so the
 * mapping is unit-tested without Stripe.
 */
export const PAID_PLAN_TYPES = ["starter", "growth", "pro"] as const;
export type PaidPlanType = (typeof PAID_PLAN_TYPES)[number];

/** Stripe subscription statuses after which the subscription can never become live again. */
const ENDED_STATUSES = new Set(["canceled", "incomplete_expired"]);
export const isEndedStripeStatus = (status: string) => ENDED_STATUSES.has(status);

const stripeId = (prefix: string) => z.string().regex(new RegExp(`^${prefix}_[A-Za-z0-9_]+$`), `is not a Stripe ${prefix}_ id`);
const expandable = (prefix: string) =>
  z.union([stripeId(prefix), z.object({ id: stripeId(prefix) })]).transform((value) => (typeof value === "string" ? value : value.id));

const subscriptionSchema = z.object({
  id: stripeId("sub"),
  customer: expandable("cus"),
  status: z.string().min(1),
  cancel_at_period_end: z.boolean().default(false),
  metadata: z.object({ user_id: z.string().uuid(), plan_type: z.enum(PAID_PLAN_TYPES) }),
  // Since API version 2025-03-31 the billing period lives on the subscription's items.
  items: z.object({
    data: z.array(z.object({ current_period_start: z.number().int().positive(), current_period_end: z.number().int().positive() })).min(1),
  }),
});

export interface StripeSubscriptionState {
  id: string;
  customerId: string;
  userId: string;
  planType: PaidPlanType;
  status: string;
  ended: boolean;
  cancelAtPeriodEnd: boolean;
  period: { start: Date; end: Date };
}

/** Reads a Stripe subscription made by our checkout; throws a ZodError for anything else. */
export function readStripeSubscription(raw: unknown): StripeSubscriptionState {
  const sub = subscriptionSchema.parse(raw);
  const starts = sub.items.data.map((item) => item.current_period_start);
  const ends = sub.items.data.map((item) => item.current_period_end);
  return {
    id: sub.id,
    customerId: sub.customer,
    userId: sub.metadata.user_id,
    planType: sub.metadata.plan_type,
    status: sub.status,
    ended: ENDED_STATUSES.has(sub.status),
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    period: { start: new Date(Math.min(...starts) * 1000), end: new Date(Math.max(...ends) * 1000) },
  };
}

const packageMetadata = z.object({
  kind: z.literal("package"),
  user_id: z.string().uuid(),
  package_id: z.string().uuid(),
  credits: z.coerce.number().int().positive(),
  credit_type: z.enum(["scan", "link"]),
});
const planMetadata = z.object({ kind: z.literal("plan"), user_id: z.string().uuid(), plan_type: z.enum(PAID_PLAN_TYPES) });

const checkoutSessionSchema = z.object({
  id: stripeId("cs"),
  mode: z.enum(["payment", "subscription", "setup"]),
  payment_status: z.enum(["paid", "unpaid", "no_payment_required"]),
  customer: expandable("cus").nullable(),
  subscription: expandable("sub").nullable().optional(),
  metadata: z.discriminatedUnion("kind", [packageMetadata, planMetadata]),
});
export type StripeCheckoutSession = z.infer<typeof checkoutSessionSchema>;

/** Reads a Checkout Session made by our checkout; throws a ZodError for anything else. */
export function readCheckoutSession(raw: unknown): StripeCheckoutSession {
  return checkoutSessionSchema.parse(raw);
}

/** The subscription an invoice bills (API 2025+: parent.subscription_details; older: subscription). */
export function subscriptionOfInvoice(raw: unknown): string | null {
  const parsed = z
    .object({
      subscription: expandable("sub").nullable().optional(),
      parent: z.object({ subscription_details: z.object({ subscription: expandable("sub") }).nullable().optional() }).nullable().optional(),
    })
    .safeParse(raw);
  if (!parsed.success) return null;
  return parsed.data.parent?.subscription_details?.subscription ?? parsed.data.subscription ?? null;
}
