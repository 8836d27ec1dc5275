import type { ActionFunctionArgs } from "@remix-run/node";
import { apiData, errorToResponse } from "~/api/respond.server";
import { AppError } from "~/lib/errors";
import { handleStripeWebhook } from "~/domain/stripe-billing.server";
import { readJsonText } from "~/lib/json-body.server";

// POST /webhooks/stripe — Stripe's webhook endpoint (docs/decisions/009). The signature is checked over
// the raw body; a bad one is 400 and changes nothing; each event id has one effect.
const MAX_EVENT_BYTES = 512 * 1024;

export async function action({ request }: ActionFunctionArgs) {
  try {
    if (request.method !== "POST") throw new AppError("method_not_allowed", "Stripe webhooks are POSTed.");
    // The raw text (the signature covers it), within the size and depth limits of every JSON body.
    const rawBody = (await readJsonText(request, { maxBytes: MAX_EVENT_BYTES })) ?? "";
    const outcome = await handleStripeWebhook({ rawBody, signature: request.headers.get("Stripe-Signature") });
    return apiData({ received: true, duplicate: outcome.duplicate });
  } catch (error) {
    return errorToResponse(error, request);
  }
}

export const loader = () => new Response("Not found", { status: 404 });
