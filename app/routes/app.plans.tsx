import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, InlineGrid, InlineStack, List, Page, Text } from "@shopify/polaris";
import { BillingInterval } from "@shopify/shopify-app-remix/server";
import { z } from "zod";
import { getShopDashboard } from "~/domain/shop-dashboard.server";
import {
  isTestBilling,
  listShopifyPlans,
  refreshShopCharges,
  SHOPIFY_PAID_PLANS,
  SHOPIFY_PLAN_NAMES,
  syncShopifyCharges,
} from "~/domain/shopify-billing.server";
import { env } from "~/env.server";
import { authenticateAdmin } from "~/shopify.server";

// Plans, charged through Shopify's Billing API (recurring charges named in shopify.server.ts). Opening this
// page applies the store's current charge to the connected account (idempotent).

export async function loader({ request }: LoaderFunctionArgs) {
  const { session, billing } = await authenticateAdmin(request);
  const paid = await refreshShopCharges({ billing, shopDomain: session.shop });
  const [plans, dashboard] = await Promise.all([listShopifyPlans(), getShopDashboard({ shopDomain: session.shop })]);
  return json({
    paid,
    connected: dashboard.account !== null,
    currentPlan: dashboard.account?.plan ?? null,
    plans: plans.map((plan) => ({
      planType: plan.planType,
      name: plan.name,
      price: `$${(plan.priceAmount / 100).toFixed(0)} / month`,
      linkQuota: plan.linkQuota,
      scanQuota: plan.scanQuota,
      embedQuota: plan.embedQuota,
    })),
  });
}

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("subscribe"), planType: z.enum(SHOPIFY_PAID_PLANS as [keyof typeof SHOPIFY_PLAN_NAMES]) }),
  z.object({ intent: z.literal("cancel") }),
]);

export async function action({ request }: ActionFunctionArgs) {
  const { session, billing } = await authenticateAdmin(request);
  const input = actionSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!input.success) return json({ error: "Choose a plan." }, { status: 400 });
  const isTest = isTestBilling();
  const dashboard = await getShopDashboard({ shopDomain: session.shop });
  if (!dashboard.account) return json({ error: "Connect a Scanroom account first." }, { status: 403 });

  if (input.data.intent === "cancel") {
    const { appSubscriptions } = await billing.check({ plans: Object.values(SHOPIFY_PLAN_NAMES), isTest });
    for (const charge of appSubscriptions) await billing.cancel({ subscriptionId: charge.id, isTest, prorate: true });
    await syncShopifyCharges({ shopDomain: session.shop, charges: [] });
    return json({ error: null });
  }

  const { planType } = input.data;
  const chargeName = SHOPIFY_PLAN_NAMES[planType];
  const plan = (await listShopifyPlans()).find((p) => p.planType === planType);
  if (!plan) return json({ error: "This plan is not available." }, { status: 404 });
  const store = session.shop.replace(/\.myshopify\.com$/, "");
  // Already paying for this plan: apply it. Otherwise Shopify's confirmation page (thrown as a redirect out of
  // the iframe); after approval Shopify returns the merchant to this page, whose loader applies the charge.
  const check = await billing.require({
    plans: [chargeName],
    isTest,
    onFailure: async () =>
      billing.request({
        plan: chargeName,
        isTest,
        returnUrl: `https://admin.shopify.com/store/${store}/apps/${env().SHOPIFY_API_KEY}/app/plans`,
        lineItems: [{ interval: BillingInterval.Every30Days, amount: plan.priceAmount / 100, currencyCode: plan.currency }],
      }),
  });
  await syncShopifyCharges({ shopDomain: session.shop, charges: check.appSubscriptions });
  return json({ error: null });
}

function limit(value: number) {
  return value === -1 ? "Unlimited" : String(value);
}

export default function ShopifyPlans() {
  const { paid, connected, currentPlan, plans } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" ? navigation.formData?.get("planType") ?? navigation.formData?.get("intent") : null;

  return (
    <Page title="Plans" backAction={{ content: "Scanroom", url: "/app" }}>
      <BlockStack gap="400">
        {!connected && <Banner tone="warning" title="Connect a Scanroom account first: the plan applies to that account." />}
        {currentPlan && (
          <Text as="p">
            Current plan: <strong>{currentPlan.name}</strong>
            {currentPlan.provider === "shopify" ? " (billed by Shopify)" : ""}
          </Text>
        )}
        <InlineGrid columns={{ xs: 1, md: 3 }} gap="400">
          {plans.map((plan) => (
            <Card key={plan.planType}>
              <BlockStack gap="300">
                <InlineStack gap="200" blockAlign="center">
                  <Text as="h2" variant="headingMd">
                    {plan.name}
                  </Text>
                  {paid === plan.planType && <Badge tone="success">Current</Badge>}
                </InlineStack>
                <Text as="p" variant="headingLg">
                  {plan.price}
                </Text>
                <List>
                  <List.Item>{limit(plan.linkQuota)} product links</List.Item>
                  <List.Item>{limit(plan.scanQuota)} scans a month</List.Item>
                  <List.Item>{limit(plan.embedQuota)} embeds</List.Item>
                </List>
                <Form method="post">
                  <input type="hidden" name="intent" value="subscribe" />
                  <input type="hidden" name="planType" value={plan.planType} />
                  <Button submit variant="primary" disabled={!connected || paid === plan.planType} loading={pending === plan.planType}>
                    {paid === plan.planType ? "Your plan" : `Choose ${plan.name}`}
                  </Button>
                </Form>
              </BlockStack>
            </Card>
          ))}
        </InlineGrid>
        {paid && (
          <Form method="post">
            <input type="hidden" name="intent" value="cancel" />
            <Button submit tone="critical" variant="plain" loading={pending === "cancel"}>
              Cancel the Shopify plan (back to Free)
            </Button>
          </Form>
        )}
      </BlockStack>
    </Page>
  );
}
