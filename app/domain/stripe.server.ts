import Stripe from "stripe";
import { env } from "~/env.server";
import { AppError } from "~/lib/errors";

/**
 * The Stripe client (docs/decisions/009). Configured by STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET;
 * STRIPE_API_BASE points it at another host (the tests' fake Stripe at the network edge). Without a key
 * payments are not configured and every checkout says so.
 */
export type { Stripe };

let cached: { signature: string; client: Stripe } | undefined;

/** host, port and protocol options of the Stripe client for an API base URL such as http://127.0.0.1:12111. */
export function stripeApiBaseOptions(base: string | undefined): { host?: string; port?: number; protocol?: "http" | "https" } {
  if (!base) return {};
  const url = new URL(base);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return { host: url.hostname, port: Number(url.port || (protocol === "http" ? 80 : 443)), protocol };
}

export function isStripeConfigured(): boolean {
  const e = env();
  return Boolean(e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET);
}

/** The configured client; throws `payments_unavailable` when Stripe is not configured. */
export function stripeClient(): Stripe {
  const e = env();
  if (!e.STRIPE_SECRET_KEY) throw new AppError("payments_unavailable", "Online payments are not available on this server.");
  const signature = `${e.STRIPE_SECRET_KEY}|${e.STRIPE_API_BASE ?? ""}`;
  if (cached?.signature !== signature) {
    cached = {
      signature,
      client: new Stripe(e.STRIPE_SECRET_KEY, {
        ...stripeApiBaseOptions(e.STRIPE_API_BASE),
        maxNetworkRetries: 2,
        timeout: 20_000,
        telemetry: false,
        appInfo: { name: "Scanroom" },
      }),
    };
  }
  return cached.client;
}

/**
 * Verifies a webhook delivery's `Stripe-Signature` over the raw body with the endpoint secret (and
 * Stripe's default 5-minute tolerance against replays) and answers the event. Throws
 * `webhook_signature_invalid` otherwise.
 */
export function verifyStripeEvent({ rawBody, signature }: { rawBody: string; signature: string | null }): Stripe.Event {
  const secret = env().STRIPE_WEBHOOK_SECRET;
  if (!secret) throw new AppError("payments_unavailable", "Stripe webhooks are not configured on this server.");
  if (!signature) throw new AppError("webhook_signature_invalid", "The Stripe-Signature header is missing.");
  try {
    return stripeClient().webhooks.constructEvent(rawBody, signature, secret);
  } catch {
    throw new AppError("webhook_signature_invalid", "The Stripe-Signature header does not match the payload.");
  }
}
