import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, InlineStack, Layout, List, Page, Text } from "@shopify/polaris";
import { getShopDashboard } from "~/domain/shop-dashboard.server";
import { issueConnectToken } from "~/domain/shop-connect.server";
import { refreshChargesIfPeriodEnded } from "~/domain/shopify-billing.server";
import { recordInstall } from "~/domain/shops.server";
import { env } from "~/env.server";
import { authenticateAdmin } from "~/shopify.server";

// The embedded admin home: connection to a Scanroom account, plan and usage, and where to go next.

export async function loader({ request }: LoaderFunctionArgs) {
  const { session, billing } = await authenticateAdmin(request);
  const shopDomain = session.shop;
  await recordInstall({ shopDomain });
  await refreshChargesIfPeriodEnded({ billing, shopDomain });
  const dashboard = await getShopDashboard({ shopDomain });
  const config = env();
  // Sign-in cannot run in the admin iframe: the merchant confirms on the site, with a signed, expiring,
  // single-use link bound to this shop (app/domain/shop-connect.server.ts).
  const connectUrl = new URL("/auth/connect/shopify", config.APP_URL);
  connectUrl.searchParams.set("token", issueConnectToken({ shopDomain }));
  return {
    ...dashboard,
    connected: dashboard.account !== null,
    connectUrl: connectUrl.toString(),
    // Opens the theme editor on the product template with our block ready to add.
    themeEditorUrl: `https://${shopDomain}/admin/themes/current/editor?template=product&addAppBlockId=${config.SHOPIFY_API_KEY}/model-3d&target=mainSection`,
  };
}

function quota(used: number, limit: number) {
  return limit === -1 ? `${used} (unlimited)` : `${used} of ${limit}`;
}

export default function ShopifyAdminHome() {
  const { shopDomain, account, linkCount, connectUrl, themeEditorUrl } = useLoaderData<typeof loader>();
  return (
    <Page title="Scanroom">
      <Layout>
        {!account && (
          <Layout.Section>
            <Banner
              title="Connect this store to your Scanroom account"
              tone="info"
              action={{ content: "Connect account", url: connectUrl, target: "_blank" }}
            >
              <p>
                Connect an account to show your 3D models on product pages. The link opens Scanroom in a new tab and
                stays valid for 15 minutes.
              </p>
            </Banner>
          </Layout.Section>
        )}
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <InlineStack gap="200" blockAlign="center">
                <Text as="h2" variant="headingMd">
                  {shopDomain}
                </Text>
                {account ? <Badge tone="success">Connected</Badge> : <Badge>Not connected</Badge>}
              </InlineStack>
              {account && (
                <InlineStack gap="200" blockAlign="center">
                  <Text as="p">Scanroom account: {account.label ?? "(no email)"}</Text>
                  <Button variant="plain" url={connectUrl} target="_blank">
                    Connect another account
                  </Button>
                </InlineStack>
              )}
              <Text as="p">Product ↔ model links in this store: {linkCount}</Text>
            </BlockStack>
          </Card>
        </Layout.Section>
        {account && (
          <Layout.Section>
            <Card>
              <BlockStack gap="300">
                <InlineStack align="space-between" blockAlign="center">
                  <Text as="h2" variant="headingMd">
                    Plan and usage
                  </Text>
                  <Button url="/app/plans">Change plan</Button>
                </InlineStack>
                <Text as="p">
                  Plan: <strong>{account.plan.name}</strong>
                  {account.plan.provider === "shopify" ? " (billed by Shopify)" : ""}
                </Text>
                <List>
                  <List.Item>Product links: {quota(account.usage.linksUsed, account.usage.linkQuota)}</List.Item>
                  <List.Item>
                    Scans left this period:{" "}
                    {account.usage.scanCredits === -1 ? "unlimited" : `${account.usage.scanCredits} (plan: ${account.usage.scanQuota})`}
                  </List.Item>
                </List>
              </BlockStack>
            </Card>
          </Layout.Section>
        )}
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Show models on your storefront
              </Text>
              <List type="number">
                <List.Item>Attach a model to a product or a variant under Products (or import a CSV under Bulk import).</List.Item>
                <List.Item>Add the “3D model” block to your product template in the theme editor.</List.Item>
              </List>
              <InlineStack gap="200">
                <Button url="/app/products" variant="primary">
                  Products
                </Button>
                <Button url={themeEditorUrl} target="_top">
                  Open the theme editor
                </Button>
              </InlineStack>
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
