import { methodNotAllowed } from "~/lib/method-not-allowed.server";
import type { ActionFunctionArgs } from "@remix-run/node";
import { handleAppUninstalled, runWebhookOnce } from "~/domain/shops.server";
import { authenticateWebhook } from "~/shopify.server";

// Subscribed in shopify.app.toml. A bad HMAC makes authenticateWebhook throw a 401 response.
export async function action({ request }: ActionFunctionArgs) {
  const { shop, topic, webhookId, eventId } = await authenticateWebhook(request);
  await runWebhookOnce({ eventId: eventId ?? webhookId, topic, shop }, (tx) =>
    handleAppUninstalled({ shopDomain: shop }, tx),
  );
  return new Response(null, { status: 200 });
}

export const loader = methodNotAllowed(["POST"]);
