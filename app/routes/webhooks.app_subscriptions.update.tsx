import { methodNotAllowed } from "~/lib/method-not-allowed.server";
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { handleChargeUpdate } from "~/domain/shopify-billing.server";
import { runWebhookOnce } from "~/domain/shops.server";
import { authenticateWebhook } from "~/shopify.server";

// Subscribed in shopify.app.toml. A charge the merchant approves, cancels, or that Shopify declines or
// freezes: the connected account's plan follows (app/domain/shopify-billing.server.ts).
const payloadSchema = z.object({
  app_subscription: z.object({
    admin_graphql_api_id: z.string().startsWith("gid://shopify/AppSubscription/"),
    name: z.string(),
    status: z.string().transform((status) => status.toUpperCase()),
  }),
});

export async function action({ request }: ActionFunctionArgs) {
  const { shop, topic, webhookId, eventId, payload } = await authenticateWebhook(request);
  const parsed = payloadSchema.safeParse(payload);
  if (!parsed.success) return new Response("Unexpected payload", { status: 400 });
  const { admin_graphql_api_id: id, name, status } = parsed.data.app_subscription;
  await runWebhookOnce({ eventId: eventId ?? webhookId, topic, shop }, (tx) =>
    handleChargeUpdate({ shopDomain: shop, charge: { id, name, status } }, tx),
  );
  return new Response(null, { status: 200 });
}

export const loader = methodNotAllowed(["POST"]);
