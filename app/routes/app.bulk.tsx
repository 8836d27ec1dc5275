import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, Checkbox, DataTable, Page, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { isAppError } from "~/lib/errors";
import { bulkAttachByHandle, listAttachableModels } from "~/domain/product-links.server";
import { CSV_MAX_ROWS, parseLinkCsv } from "~/lib/shopify-link-csv";
import { authenticateAdmin } from "~/shopify.server";

// Bulk attach by product handle from a CSV: `handle,model_id[,variant_id]`, one link per line.

const CSV_MAX_CHARS = 100_000;

export async function loader({ request }: LoaderFunctionArgs) {
  const { session } = await authenticateAdmin(request);
  const { connected, models } = await listAttachableModels({ shopDomain: session.shop });
  return json({ connected, models: models.map((model) => ({ id: model.id, name: model.name })) });
}

export async function action({ request }: ActionFunctionArgs) {
  const { session, admin } = await authenticateAdmin(request);
  const form = await request.formData();
  const csv = String(form.get("csv") ?? "");
  const addToMedia = form.get("addToMedia") === "on";
  if (csv.length > CSV_MAX_CHARS) return json({ error: "The CSV is too large.", attached: 0, failures: [], addToMedia }, { status: 413 });
  const { rows, problems } = parseLinkCsv(csv);
  const failures = problems.map((problem) => ({ line: problem.line, handle: "", message: problem.message }));
  if (rows.length === 0 && problems.length === 0) return json({ error: "The CSV has no links.", attached: 0, failures, addToMedia }, { status: 400 });
  try {
    const results = await bulkAttachByHandle({ admin, shopDomain: session.shop, rows, addToMedia });
    for (const row of results) if (!row.ok) failures.push({ line: row.line, handle: row.handle, message: row.message });
    return json({ error: null, attached: results.filter((row) => row.ok).length, failures, addToMedia });
  } catch (error) {
    if (isAppError(error)) return json({ error: error.message, attached: 0, failures, addToMedia }, { status: error.status });
    throw error;
  }
}

export default function ShopifyBulkImport() {
  const { connected, models } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const [csv, setCsv] = useState("handle,model_id,variant_id\n");
  const [addToMedia, setAddToMedia] = useState(true);
  const failed = (result?.failures ?? []).map((f) => [String(f.line), f.handle, f.message]);

  return (
    <Page title="Bulk import" backAction={{ content: "Products", url: "/app/products" }}>
      <BlockStack gap="400">
        {!connected && <Banner tone="warning" title="Connect a Scanroom account first (Scanroom home)." />}
        {result?.error && <Banner tone="critical" title={result.error} />}
        {result && !result.error && (
          <Banner tone={failed.length ? "warning" : "success"} title={`${result.attached} attached, ${failed.length} not attached`}>
            {result.addToMedia && result.attached > 0 && <p>Their meshes go into the products&apos; media one product at a time; the Products page shows where each one is.</p>}
          </Banner>
        )}
        <Card>
          <Form method="post">
            <BlockStack gap="300">
              <Text as="p">
                One link per line: the product&apos;s handle, the model id, and optionally a variant id (numeric or GID) to
                attach the model to that variant only. Up to {CSV_MAX_ROWS} lines; a model already on a product or
                variant is replaced.
              </Text>
              <TextField
                label="CSV"
                name="csv"
                value={csv}
                onChange={setCsv}
                multiline={8}
                autoComplete="off"
                monospaced
              />
              <input
                type="file"
                accept=".csv,text/csv"
                aria-label="Read a CSV file"
                onChange={async (event) => {
                  const file = event.currentTarget.files?.[0];
                  if (file) setCsv(await file.text());
                }}
              />
              <Checkbox
                label="Also add each model's mesh to its product's media"
                helpText="Shopify's product viewer, AR and the Shop app then show it too. Each product is a job of its own: they go up one after another within Shopify's limits, and carry on after a restart; each product's page shows its state. Splats without a mesh stay in the theme block only."
                checked={addToMedia}
                onChange={setAddToMedia}
              />
              <input type="hidden" name="addToMedia" value={addToMedia ? "on" : "off"} />
              <div>
                <Button submit variant="primary" disabled={!connected} loading={navigation.state === "submitting"}>
                  Attach models
                </Button>
              </div>
            </BlockStack>
          </Form>
        </Card>
        {failed.length > 0 && (
          <Card>
            <DataTable columnContentTypes={["numeric", "text", "text"]} headings={["Line", "Handle", "Problem"]} rows={failed} />
          </Card>
        )}
        {models.length > 0 && (
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingSm">
                Your models
              </Text>
              <DataTable columnContentTypes={["text", "text"]} headings={["Name", "Model id"]} rows={models.map((m) => [m.name, m.id])} />
            </BlockStack>
          </Card>
        )}
      </BlockStack>
    </Page>
  );
}
