import type { ActionFunctionArgs } from "@remix-run/node";
import { apiData, errorToResponse } from "~/api/respond.server";
import { AppError } from "~/domain/errors";
import { handleStripeWebhook } from "~/domain/stripe-billing.server";

// POST /webhooks/stripe — Stripe's webhook endpoint (docs/decisions/009). The signature is checked over
// the raw body; a bad one is 400 and changes nothing; each event id has one effect.
const MAX_EVENT_BYTES = 512 * 1024;

export async function action({ request }: ActionFunctionArgs) {
  try {
    if (request.method !== "POST") throw new AppError("method_not_allowed", "Stripe webhooks are POSTed.");
    if (Number(request.headers.get("Content-Length") ?? 0) > MAX_EVENT_BYTES) throw new AppError("payload_too_large", "The event is too large.");
    const rawBody = await request.text();
    if (Buffer.byteLength(rawBody) > MAX_EVENT_BYTES) throw new AppError("payload_too_large", "The event is too large.");
    const outcome = await handleStripeWebhook({ rawBody, signature: request.headers.get("Stripe-Signature") });
    return apiData({ received: true, duplicate: outcome.duplicate });
  } catch (error) {
    return errorToResponse(error, request);
  }
}

export const loader = () => new Response("Not found", { status: 404 });
