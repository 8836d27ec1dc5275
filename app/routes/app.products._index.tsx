import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import {
  Badge,
  BlockStack,
  Box,
  Button,
  Card,
  InlineStack,
  Page,
  Pagination,
  ResourceItem,
  ResourceList,
  Text,
  TextField,
  Thumbnail,
} from "@shopify/polaris";
import { useState } from "react";
import { listProductLinks } from "~/domain/product-links.server";
import { listProductMedia } from "~/domain/product-media.server";
import { describeMediaState } from "~/domain/product-media-presenter";
import { listProducts } from "~/domain/shopify-admin-api.server";
import { legacyId } from "~/lib/shopify-model-metafield";
import { authenticateAdmin } from "~/shopify.server";

// The store's products (Admin GraphQL, by title, 20 a page, searchable) with how many have a model, and the
// state of the 3D media Scanroom added to each.

const MEDIA_ORDER = ["critical", "attention", "success"];

export async function loader({ request }: LoaderFunctionArgs) {
  const { session, admin } = await authenticateAdmin(request);
  const url = new URL(request.url);
  const search = url.searchParams.get("q")?.slice(0, 100) ?? "";
  const page = await listProducts(admin, {
    search,
    after: url.searchParams.get("after") ?? undefined,
    before: url.searchParams.get("before") ?? undefined,
  });
  const productGids = page.products.map((p) => p.id);
  const [links, media] = await Promise.all([listProductLinks({ shopDomain: session.shop, productGids }), listProductMedia({ shopDomain: session.shop, productGids })]);
  return {
    search,
    pageInfo: page.pageInfo,
    products: page.products.map((product) => {
      const own = links.filter((link) => link.productGid === product.id);
      return {
        id: legacyId(product.id),
        title: product.title,
        handle: product.handle,
        status: product.status,
        imageUrl: product.imageUrl,
        variantCount: product.variants.length,
        wholeProductModel: own.find((link) => link.variantGid === "")?.item.name ?? null,
        variantModels: own.filter((link) => link.variantGid !== "").length,
        // The least finished of the product's media we added (failed, then in progress, then ready).
        media: media
          .filter((entry) => entry.productGid === product.id)
          .map(describeMediaState)
          .sort((a, b) => MEDIA_ORDER.indexOf(a.tone) - MEDIA_ORDER.indexOf(b.tone))[0] ?? null,
      };
    }),
  };
}

export default function ShopifyProducts() {
  const { search, pageInfo, products } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const [query, setQuery] = useState(search);
  const pageUrl = (key: "after" | "before", cursor: string | null) => {
    const params = new URLSearchParams();
    if (search) params.set("q", search);
    if (cursor) params.set(key, cursor);
    return `/app/products?${params.toString()}`;
  };

  return (
    <Page title="Products" backAction={{ content: "Scanroom", url: "/app" }} secondaryActions={[{ content: "Bulk import", url: "/app/bulk" }]}>
      <BlockStack gap="400">
        <Card>
          <Form method="get" action="/app/products">
            <InlineStack gap="200" blockAlign="end" wrap={false}>
              <div style={{ flexGrow: 1 }}>
                <TextField
                  label="Search products"
                  name="q"
                  value={query}
                  onChange={setQuery}
                  autoComplete="off"
                  placeholder="Title, SKU, vendor…"
                  clearButton
                  onClearButtonClick={() => setQuery("")}
                />
              </div>
              <Button submit loading={navigation.state === "loading"}>
                Search
              </Button>
            </InlineStack>
          </Form>
        </Card>
        <Card padding="0">
          {products.length === 0 ? (
            <Box padding="400">
              <Text as="p" tone="subdued">
                {search ? "No products match your search." : "This store has no products yet. Add products in Shopify, then attach models to them here."}
              </Text>
            </Box>
          ) : (
            <ResourceList
              resourceName={{ singular: "product", plural: "products" }}
              items={products}
              renderItem={(product) => (
                <ResourceItem
                  id={product.id}
                  url={`/app/products/${product.id}`}
                  accessibilityLabel={`Open ${product.title}`}
                  media={product.imageUrl ? <Thumbnail source={product.imageUrl} alt="" size="small" /> : undefined}
                >
                  <InlineStack gap="200" blockAlign="center">
                    <Text as="h3" variant="bodyMd" fontWeight="bold">
                      {product.title}
                    </Text>
                    {product.status !== "ACTIVE" && <Badge>{product.status.toLowerCase()}</Badge>}
                    {product.wholeProductModel && <Badge tone="success">{`3D: ${product.wholeProductModel}`}</Badge>}
                    {product.variantModels > 0 && <Badge tone="info">{`${product.variantModels} variant models`}</Badge>}
                    {product.media && <Badge tone={product.media.tone}>{product.media.label}</Badge>}
                  </InlineStack>
                  <Text as="p" tone="subdued">
                    {product.handle} · {product.variantCount} {product.variantCount === 1 ? "variant" : "variants"}
                  </Text>
                </ResourceItem>
              )}
            />
          )}
        </Card>
        <InlineStack align="center">
          <Pagination
            hasPrevious={pageInfo.hasPreviousPage}
            previousURL={pageUrl("before", pageInfo.startCursor)}
            hasNext={pageInfo.hasNextPage}
            nextURL={pageUrl("after", pageInfo.endCursor)}
          />
        </InlineStack>
      </BlockStack>
    </Page>
  );
}
