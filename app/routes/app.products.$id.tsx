import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, Button, Card, InlineStack, Page, Select, Text, Thumbnail } from "@shopify/polaris";
import { useState } from "react";
import { z } from "zod";
import { isAppError } from "~/lib/errors";
import { attachModel, detachModel, listAttachableModels, listProductLinks } from "~/domain/product-links.server";
import { getProduct } from "~/domain/shopify-admin-api.server";
import { env } from "~/env.server";
import { posterUrl } from "~/lib/shopify-model-metafield";
import { authenticateAdmin } from "~/shopify.server";

// One product: attach a model to the whole product or to one variant, detach it, preview it.

const productGidOf = (id: string | undefined) => {
  if (!id || !/^\d{1,20}$/.test(id)) throw new Response("Not found", { status: 404 });
  return `gid://shopify/Product/${id}`;
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { session, admin } = await authenticateAdmin(request);
  const productGid = productGidOf(params.id);
  const product = await getProduct(admin, productGid).catch((error) => {
    if (isAppError(error) && error.code === "not_found") throw new Response("Not found", { status: 404 });
    throw error;
  });
  const [links, { connected, models }] = await Promise.all([
    listProductLinks({ shopDomain: session.shop, productGids: [productGid] }),
    listAttachableModels({ shopDomain: session.shop }),
  ]);
  const appUrl = env().APP_URL;
  const rows = [{ id: "", title: "Whole product (every variant without its own model)" }, ...product.variants].map((row) => {
    const item = links.find((link) => link.variantGid === row.id)?.item ?? null;
    return { variantGid: row.id, title: row.title, model: item && { id: item.id, name: item.name, poster: posterUrl(appUrl, item) } };
  });
  return json({
    product: { title: product.title, handle: product.handle, imageUrl: product.imageUrl },
    rows,
    models: models.map((model) => ({ label: model.name, value: model.id })),
    connected,
    embedBase: new URL("/embed/", appUrl).toString(),
  });
}

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("attach"), variantGid: z.string().regex(/^(gid:\/\/shopify\/ProductVariant\/\d+)?$/), itemId: z.string().uuid() }),
  z.object({ intent: z.literal("detach"), variantGid: z.string().regex(/^(gid:\/\/shopify\/ProductVariant\/\d+)?$/) }),
]);

export async function action({ request, params }: ActionFunctionArgs) {
  const { session, admin } = await authenticateAdmin(request);
  const productGid = productGidOf(params.id);
  const input = actionSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!input.success) return json({ ok: false as const, error: "Choose a model to attach." }, { status: 400 });
  const target = { admin, shopDomain: session.shop, productGid, variantGid: input.data.variantGid };
  try {
    if (input.data.intent === "attach") await attachModel({ ...target, itemId: input.data.itemId });
    else await detachModel(target);
    return json({ ok: true as const, intent: input.data.intent, variantGid: input.data.variantGid });
  } catch (error) {
    if (isAppError(error)) return json({ ok: false as const, error: error.message }, { status: error.status });
    throw error;
  }
}

export default function ShopifyProduct() {
  const { product, rows, models, connected, embedBase } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" ? navigation.formData?.get("variantGid") : null;
  const [chosen, setChosen] = useState<Record<string, string>>({});
  const [preview, setPreview] = useState<string | null>(null);

  return (
    <Page title={product.title} subtitle={product.handle} backAction={{ content: "Products", url: "/app/products" }}>
      <BlockStack gap="400">
        {!connected && (
          <Banner tone="warning" title="Connect a Scanroom account first" action={{ content: "Go to Scanroom home", url: "/app" }}>
            <p>Models come from the Scanroom account connected to this store.</p>
          </Banner>
        )}
        {connected && models.length === 0 && (
          <Banner tone="info" title="No models ready to attach">
            <p>Only ready models that are public or unlisted can be shown on a storefront.</p>
          </Banner>
        )}
        {result && !result.ok && <Banner tone="critical" title={result.error} />}
        {result?.ok && <Banner tone="success" title={result.intent === "attach" ? "Model attached" : "Model detached"} />}
        {rows.map((row) => (
          <Card key={row.variantGid || "product"}>
            <BlockStack gap="300">
              <InlineStack align="space-between" blockAlign="center">
                <InlineStack gap="200" blockAlign="center">
                  {row.model?.poster && <Thumbnail source={row.model.poster} alt="" size="small" />}
                  <BlockStack>
                    <Text as="h2" variant="headingSm">
                      {row.title}
                    </Text>
                    {row.model ? <Badge tone="success">{row.model.name}</Badge> : <Text as="span" tone="subdued">No model</Text>}
                  </BlockStack>
                </InlineStack>
                {row.model && (
                  <InlineStack gap="200">
                    <Button onClick={() => setPreview(preview === row.variantGid ? null : row.variantGid)}>
                      {preview === row.variantGid ? "Hide preview" : "Preview"}
                    </Button>
                    <Form method="post">
                      <input type="hidden" name="intent" value="detach" />
                      <input type="hidden" name="variantGid" value={row.variantGid} />
                      <Button submit tone="critical" loading={busy === row.variantGid}>
                        Detach
                      </Button>
                    </Form>
                  </InlineStack>
                )}
              </InlineStack>
              {row.model && preview === row.variantGid && (
                <Box borderRadius="200" overflowX="hidden" overflowY="hidden">
                  <iframe
                    title={`3D preview: ${row.model.name}`}
                    src={`${embedBase}${row.model.id}`}
                    style={{ width: "100%", height: 420, border: 0, display: "block" }}
                    allow="fullscreen; xr-spatial-tracking"
                  />
                </Box>
              )}
              {models.length > 0 && (
                <Form method="post">
                  <input type="hidden" name="intent" value="attach" />
                  <input type="hidden" name="variantGid" value={row.variantGid} />
                  <InlineStack gap="200" blockAlign="end">
                    <Select
                      label={row.model ? "Replace with" : "Attach a model"}
                      name="itemId"
                      options={[{ label: "Choose a model", value: "" }, ...models]}
                      value={chosen[row.variantGid] ?? ""}
                      onChange={(value) => setChosen({ ...chosen, [row.variantGid]: value })}
                    />
                    <Button submit variant="primary" disabled={!chosen[row.variantGid]} loading={busy === row.variantGid}>
                      Attach
                    </Button>
                  </InlineStack>
                </Form>
              )}
            </BlockStack>
          </Card>
        ))}
      </BlockStack>
    </Page>
  );
}
