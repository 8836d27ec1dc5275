import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Badge, Banner, BlockStack, Card, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import { getShopOverview, recordInstall } from "~/domain/shops.server";
import { env } from "~/env.server";
import { authenticateAdmin } from "~/shopify.server";

// The embedded admin home. Small on purpose: the full dashboard is a later issue.

export async function loader({ request }: LoaderFunctionArgs) {
  const { session } = await authenticateAdmin(request);
  const shopDomain = session.shop;
  await recordInstall({ shopDomain });
  const overview = await getShopOverview({ shopDomain });
  const config = env();
  const connectUrl = new URL("/auth/connect/shopify", config.SHOPIFY_APP_URL ?? config.APP_URL);
  connectUrl.searchParams.set("shop", shopDomain);
  return { ...overview, installedAt: overview.installedAt?.toISOString() ?? null, connectUrl: connectUrl.toString() };
}

export default function ShopifyAdminHome() {
  const { shopDomain, connected, linkCount, connectUrl } = useLoaderData<typeof loader>();
  return (
    <Page title="Scanroom">
      <Layout>
        {!connected && (
          <Layout.Section>
            {/* Sign-in cannot run inside the admin iframe, so the connect page opens in a new tab. */}
            <Banner
              title="Connect this store to your Scanroom account"
              tone="info"
              action={{ content: "Connect account", url: connectUrl, target: "_blank" }}
            >
              <p>Connect an account to show your 3D models on product pages.</p>
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
                {connected ? <Badge tone="success">Connected</Badge> : <Badge>Not connected</Badge>}
              </InlineStack>
              <Text as="p">
                Product ↔ model links: {linkCount}
              </Text>
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
