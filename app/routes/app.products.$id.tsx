import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, Button, Card, Checkbox, InlineStack, Page, Select, Text, Thumbnail } from "@shopify/polaris";
import { useState } from "react";
import { z } from "zod";
import { isAppError } from "~/lib/errors";
import { attachModel, detachModel, listAttachableModels, listProductLinks, setLinkAddToMedia } from "~/domain/product-links.server";
import { listProductMedia, retryFailedProductMedia } from "~/domain/product-media.server";
import { describeMediaState, MEDIA_NEEDS_A_MESH } from "~/domain/product-media-presenter";
import { getProduct } from "~/domain/shopify-admin-api.server";
import { env } from "~/env.server";
import { posterUrl } from "~/lib/shopify-model-metafield";
import { authenticateAdmin } from "~/shopify.server";

// One product: attach a model to the whole product or to one variant, detach it, preview it, and put its mesh
// in the product's own media (issue 40).

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
  const [links, { connected, models }, media] = await Promise.all([
    listProductLinks({ shopDomain: session.shop, productGids: [productGid] }),
    listAttachableModels({ shopDomain: session.shop }),
    listProductMedia({ shopDomain: session.shop, productGids: [productGid] }),
  ]);
  const appUrl = env().APP_URL;
  const rows = [{ id: "", title: "Whole product (every variant without its own model)" }, ...product.variants].map((row) => {
    const link = links.find((candidate) => candidate.variantGid === row.id);
    const item = link?.item ?? null;
    const pushed = item && media.find((candidate) => candidate.itemId === item.id);
    return {
      variantGid: row.id,
      title: row.title,
      model: item && { id: item.id, name: item.name, poster: posterUrl(appUrl, item), hasMesh: item.hasMesh },
      addToMedia: link?.addToMedia ?? false,
      media: pushed ? { ...describeMediaState(pushed), failed: pushed.status === "failed" } : null,
    };
  });
  return json({
    product: { title: product.title, handle: product.handle, imageUrl: product.imageUrl },
    rows,
    models: models.map((model) => ({ label: model.name, value: model.id, hasMesh: model.hasMesh })),
    connected,
    embedBase: new URL("/embed/", appUrl).toString(),
  });
}

const variantGid = z.string().regex(/^(gid:\/\/shopify\/ProductVariant\/\d+)?$/);
const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("attach"), variantGid, itemId: z.string().uuid(), addToMedia: z.enum(["on", "off"]).default("off") }),
  z.object({ intent: z.literal("detach"), variantGid }),
  z.object({ intent: z.literal("media"), variantGid, addToMedia: z.enum(["on", "off"]) }),
  z.object({ intent: z.literal("retry-media"), variantGid }),
]);

const DONE = { attach: "Model attached", detach: "Model detached", media: "Product media updated", "retry-media": "Adding the model to the product's media again" } as const;

export async function action({ request, params }: ActionFunctionArgs) {
  const { session, admin } = await authenticateAdmin(request);
  const productGid = productGidOf(params.id);
  const input = actionSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!input.success) return json({ ok: false as const, error: "Choose a model to attach." }, { status: 400 });
  const target = { admin, shopDomain: session.shop, productGid, variantGid: input.data.variantGid };
  try {
    const { data } = input;
    if (data.intent === "attach") await attachModel({ ...target, itemId: data.itemId, addToMedia: data.addToMedia === "on" });
    else if (data.intent === "detach") await detachModel(target);
    else if (data.intent === "media") await setLinkAddToMedia({ ...target, addToMedia: data.addToMedia === "on" });
    else await retryFailedProductMedia({ shopDomain: session.shop, productGid });
    return json({ ok: true as const, message: DONE[data.intent], variantGid: data.variantGid });
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
        {result?.ok && <Banner tone="success" title={result.message} />}
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
              {row.model && <ProductMediaLine row={{ ...row, model: row.model }} busy={busy === row.variantGid} />}
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
                  <BlockStack gap="200">
                  <InlineStack gap="200" blockAlign="end">
                    <Select
                      label={row.model ? "Replace with" : "Attach a model"}
                      name="itemId"
                      options={[{ label: "Choose a model", value: "" }, ...models.map(({ label, value }) => ({ label, value }))]}
                      value={chosen[row.variantGid] ?? ""}
                      onChange={(value) => setChosen({ ...chosen, [row.variantGid]: value })}
                    />
                    <Button submit variant="primary" disabled={!chosen[row.variantGid]} loading={busy === row.variantGid}>
                      Attach
                    </Button>
                  </InlineStack>
                  <AddToMediaChoice model={models.find((model) => model.value === chosen[row.variantGid]) ?? null} />
                  </BlockStack>
                </Form>
              )}
            </BlockStack>
          </Card>
        ))}
      </BlockStack>
    </Page>
  );
}

const MEDIA_HELP =
  "Adds the model's mesh to this product's media in Shopify, where Shopify's product viewer, AR on phones and the Shop app show it. Turning it off or detaching removes only what Scanroom added.";

/** The attach form's "also add to the product's media" option: on by default for a model with a mesh. */
function AddToMediaChoice({ model }: { model: { hasMesh: boolean } | null }) {
  const [checked, setChecked] = useState<boolean | null>(null);
  if (!model) return null;
  const on = model.hasMesh && (checked ?? true);
  return (
    <>
      <Checkbox
        label="Also add to the product's media"
        helpText={model.hasMesh ? MEDIA_HELP : MEDIA_NEEDS_A_MESH}
        checked={on}
        disabled={!model.hasMesh}
        onChange={(value) => setChecked(value)}
      />
      <input type="hidden" name="addToMedia" value={on ? "on" : "off"} />
    </>
  );
}

type MediaRow = {
  variantGid: string;
  model: { hasMesh: boolean };
  addToMedia: boolean;
  media: { tone: "success" | "attention" | "critical"; label: string; failed: boolean } | null;
};

/** A linked model's place in the product's media: its state, the option, and a retry after Shopify failed. */
function ProductMediaLine({ row, busy }: { row: MediaRow; busy: boolean }) {
  if (!row.model.hasMesh) {
    return (
      <Text as="p" tone="subdued">
        {MEDIA_NEEDS_A_MESH}
      </Text>
    );
  }
  return (
    <InlineStack gap="200" blockAlign="center">
      {row.addToMedia && row.media && (
        <span data-testid="product-media-state">
          <Badge tone={row.media.tone}>{row.media.label}</Badge>
        </span>
      )}
      {row.addToMedia && !row.media && (
        <span data-testid="product-media-state">
          <Badge tone="attention">Being added to the product&apos;s media</Badge>
        </span>
      )}
      {row.media?.failed && (
        <Form method="post">
          <input type="hidden" name="intent" value="retry-media" />
          <input type="hidden" name="variantGid" value={row.variantGid} />
          <Button submit loading={busy}>
            Retry
          </Button>
        </Form>
      )}
      <Form method="post">
        <input type="hidden" name="intent" value="media" />
        <input type="hidden" name="variantGid" value={row.variantGid} />
        <input type="hidden" name="addToMedia" value={row.addToMedia ? "off" : "on"} />
        <Button submit variant="plain" loading={busy}>
          {row.addToMedia ? "Remove from the product's media" : "Add to the product's media"}
        </Button>
      </Form>
    </InlineStack>
  );
}
