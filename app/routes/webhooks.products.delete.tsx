import { methodNotAllowed } from "~/lib/method-not-allowed.server";
import type { ActionFunctionArgs } from "@remix-run/node";
import { removeProductLinks } from "~/domain/product-links.server";
import { runWebhookOnce } from "~/domain/shops.server";
import { authenticateWebhook } from "~/shopify.server";

// Subscribed in shopify.app.toml. A bad HMAC makes authenticateWebhook throw a 401 response.
// The payload is `{"id": <product id>}`. Read from the raw body: JSON.parse would round ids above 2^53.
export async function action({ request }: ActionFunctionArgs) {
  const { shop, topic, webhookId, eventId, rawBody } = await authenticateWebhook(request);
  const id = /"id"\s*:\s*"?(\d+)"?/.exec(rawBody)?.[1];
  if (!id) return new Response("Missing product id", { status: 400 });
  await runWebhookOnce({ eventId: eventId ?? webhookId, topic, shop }, (tx) =>
    removeProductLinks({ shopDomain: shop, productGid: `gid://shopify/Product/${id}` }, tx),
  );
  return new Response(null, { status: 200 });
}

export const loader = methodNotAllowed(["POST"]);
