import { methodNotAllowed } from "~/lib/method-not-allowed.server";
import type { ActionFunctionArgs } from "@remix-run/node";
import { handleCustomersRedact, runWebhookOnce } from "~/domain/shops.server";
import { authenticateWebhook } from "~/shopify.server";

// Mandatory compliance webhook (shopify.app.toml). A bad HMAC makes authenticateWebhook throw a 401 response.
export async function action({ request }: ActionFunctionArgs) {
  const { shop, topic, webhookId, eventId } = await authenticateWebhook(request);
  await runWebhookOnce({ eventId: eventId ?? webhookId, topic, shop }, () =>
    handleCustomersRedact({ shopDomain: shop }),
  );
  return new Response(null, { status: 200 });
}

export const loader = methodNotAllowed(["POST"]);
