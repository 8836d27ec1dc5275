import { getHmac, getJwt, setUpValidSession } from "@shopify/shopify-api/test-helpers";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import { GetObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { signPostPolicy } from "../../scripts/lib/s3-server.mjs";
import { s3TestConfig } from "../setup/config";
import { SHARED_DATA } from "../setup/shared-data";
import { startTestServer } from "../setup/test-server";

// The embedded admin (products, links, bulk import, plans), the connect flow and the Shopify webhooks added for
// issue 7, against a real database. Session tokens and webhook HMACs are minted with Shopify's own test helpers;
// the Admin GraphQL API is faked at the network edge (globalThis.fetch) with the response shapes Shopify sends,
// keyed by the access token, so a call made with the wrong shop's token finds nothing.
const API_KEY = "scanroom-test-api-key";
const API_SECRET = "scanroom-test-api-secret-0123456789";
const APP_URL = "https://scanroom.test";
process.env.SHOPIFY_API_KEY = API_KEY;
process.env.SHOPIFY_API_SECRET = API_SECRET;
process.env.SHOPIFY_APP_URL = APP_URL;
process.env.APP_URL = APP_URL;

// ── The fake Admin API ────────────────────────────────────────────────────────────────────────────────
type FakeProduct = { id: number; title: string; handle: string; variants: Array<{ id: number; title: string }> };
type FakeCharge = { id: string; name: string; status: string; test: boolean; currentPeriodEnd: string | null };
const catalogs: Record<string, FakeProduct[]> = {};
const charges: Record<string, FakeCharge[]> = {};
const refuseMetafieldFor = new Set<string>();
// Product media (issue 40): what each product's media list holds at "Shopify", and how its processing ends.
type FakeMedia = { id: string; alt: string; contentType: "MODEL_3D" | "IMAGE"; status: "PROCESSING" | "READY" | "FAILED"; bytes?: Uint8Array; ours?: boolean };
const productMedia: Record<string, FakeMedia[]> = {};
const mediaOutcome = { failNext: null as string | null, throttleNextStage: false };
let mediaSeq = 0;
const adminCalls: Array<{ shop: string; operation: string; variables: Record<string, any> }> = [];

function productNode(p: FakeProduct) {
  return {
    id: `gid://shopify/Product/${p.id}`,
    title: p.title,
    handle: p.handle,
    status: "ACTIVE",
    featuredMedia: { preview: { image: { url: `https://cdn.shopify.com/s/files/${p.handle}.jpg` } } },
    variants: { nodes: p.variants.map((v) => ({ id: `gid://shopify/ProductVariant/${v.id}`, title: v.title })) },
  };
}

function chargeNode(c: FakeCharge) {
  return {
    ...c,
    trialDays: 0,
    createdAt: "2026-01-01T00:00:00Z",
    returnUrl: "https://admin.shopify.com/",
    lineItems: [{ id: `${c.id}-line`, plan: { pricingDetails: { price: { amount: "29.0", currencyCode: "USD" }, interval: "EVERY_30_DAYS" } } }],
  };
}

/**
 * Shopify's processing of an uploaded model: still under way at the first read of its state (right after the
 * upload), done at the next: ready, or failed with a reason.
 */
function processModel(media: FakeMedia & { reads?: number }) {
  if (media.status !== "PROCESSING") return;
  media.reads = (media.reads ?? 0) + 1;
  if (media.reads < 2) return;
  media.status = mediaOutcome.failNext ? "FAILED" : "READY";
  (media as FakeMedia & { error?: string }).error = mediaOutcome.failNext ?? undefined;
  mediaOutcome.failNext = null;
}
const mediaNode = (m: FakeMedia & { error?: string }) => ({
  id: m.id,
  alt: m.alt,
  mediaContentType: m.contentType,
  status: m.status,
  mediaErrors: m.error ? [{ message: m.error }] : [],
});

async function answer(shop: string, query: string, variables: Record<string, any>): Promise<unknown> {
  const catalog = catalogs[shop] ?? [];
  const operation = /(?:query|mutation)\s+(\w+)/.exec(query)?.[1] ?? "anonymous";
  adminCalls.push({ shop, operation, variables });
  switch (operation) {
    case "ScanroomProducts": {
      const terms: string[] = variables.query ? String(variables.query).split(" OR ") : [];
      const matches = catalog.filter((p) =>
        terms.length === 0 ? true : terms.some((t) => (t.startsWith("handle:") ? p.handle === t.slice(7) : p.title.toLowerCase().includes(t.toLowerCase()))),
      );
      const start = variables.after ? Number(Buffer.from(variables.after, "base64").toString()) + 1 : 0;
      const page = matches.slice(start, start + (variables.first ?? 20));
      const cursor = (i: number) => Buffer.from(String(i)).toString("base64");
      return {
        products: {
          nodes: page.map(productNode),
          pageInfo: {
            hasNextPage: start + page.length < matches.length,
            hasPreviousPage: start > 0,
            startCursor: page.length ? cursor(start) : null,
            endCursor: page.length ? cursor(start + page.length - 1) : null,
          },
        },
      };
    }
    case "ScanroomProduct": {
      const product = catalog.find((p) => `gid://shopify/Product/${p.id}` === variables.id);
      return { product: product ? productNode(product) : null };
    }
    case "ScanroomSetModel": {
      const input = variables.metafields[0];
      if (refuseMetafieldFor.has(input.ownerId)) {
        return { metafieldsSet: { metafields: [], userErrors: [{ field: ["metafields", "0", "value"], message: "Value is invalid JSON." }] } };
      }
      return { metafieldsSet: { metafields: [{ id: "gid://shopify/Metafield/1", namespace: `app--1--scanroom`, key: input.key }], userErrors: [] } };
    }
    case "ScanroomDeleteModel":
      return { metafieldsDelete: { deletedMetafields: [{ ...variables.metafields[0], namespace: "app--1--scanroom" }], userErrors: [] } };
    case "ScanroomStageModel": {
      // Shopify hands out a signed POST to its bucket; here, to the run's S3 server, signed with its secret.
      if (mediaOutcome.throttleNextStage) {
        mediaOutcome.throttleNextStage = false;
        throw new ThrottledError();
      }
      const input = variables.input[0];
      const s3 = s3TestConfig()!;
      const key = `staged/${++mediaSeq}/${input.filename}`;
      const fields = signPostPolicy({ bucket: s3.bucket, key, contentType: input.mimeType, maxBytes: Number(input.fileSize), secretAccessKey: s3.secretAccessKey });
      return {
        stagedUploadsCreate: {
          stagedTargets: [{ url: `${s3.endpoint}/${s3.bucket}`, resourceUrl: `${s3.endpoint}/${s3.bucket}/${key}`, parameters: Object.entries(fields).map(([name, value]) => ({ name, value })) }],
          userErrors: [],
        },
      };
    }
    case "ScanroomAddModelMedia": {
      const [input] = variables.media;
      const list = (productMedia[variables.product.id] ??= []);
      const bytes = await readStaged(input.originalSource);
      if (!bytes) return { productUpdate: { product: null, userErrors: [{ field: ["media", "0", "originalSource"], message: "Media failed to upload: the staged file is missing." }] } };
      list.push({ id: `gid://shopify/Model3d/${5000 + ++mediaSeq}`, alt: input.alt, contentType: input.mediaContentType, status: "PROCESSING", bytes, ours: true });
      return { productUpdate: { product: { media: { nodes: list.slice(-1).map(mediaNode) } }, userErrors: [] } };
    }
    case "ScanroomModelMediaStatus": {
      const all = Object.values(productMedia).flat();
      return {
        nodes: variables.ids.map((id: string) => {
          const media = all.find((m) => m.id === id);
          if (media) processModel(media);
          return media ? mediaNode(media) : null;
        }),
      };
    }
    case "ScanroomRenameModelMedia": {
      const [file] = variables.files;
      const media = Object.values(productMedia).flat().find((m) => m.id === file.id);
      if (!media) return { fileUpdate: { files: [], userErrors: [{ field: ["files", "0", "id"], message: "File does not exist.", code: "FILE_DOES_NOT_EXIST" }] } };
      media.alt = file.alt;
      return { fileUpdate: { files: [{ id: media.id, alt: media.alt }], userErrors: [] } };
    }
    case "ScanroomDeleteModelMedia": {
      const deleted: string[] = [];
      const userErrors: Array<{ field: string[]; message: string; code: string }> = [];
      for (const id of variables.fileIds as string[]) {
        const holder = Object.values(productMedia).find((list) => list.some((m) => m.id === id));
        if (!holder) userErrors.push({ field: ["fileIds"], message: `File id ${id} does not exist.`, code: "FILE_DOES_NOT_EXIST" });
        else {
          holder.splice(holder.findIndex((m) => m.id === id), 1);
          deleted.push(id);
        }
      }
      return { fileDelete: { deletedFileIds: deleted, userErrors } };
    }
    case "appSubscription":
      return {
        currentAppInstallation: {
          activeSubscriptions: (charges[shop] ?? []).filter((c) => c.status === "ACTIVE").map(chargeNode),
          oneTimePurchases: { edges: [], pageInfo: { hasNextPage: false, endCursor: null } },
        },
      };
    case "AppSubscriptionCreate": {
      const charge: FakeCharge = { id: `gid://shopify/AppSubscription/${900 + adminCalls.length}`, name: variables.name, status: "PENDING", test: variables.test, currentPeriodEnd: null };
      charges[shop] = [...(charges[shop] ?? []), charge];
      return {
        appSubscriptionCreate: {
          appSubscription: chargeNode(charge),
          confirmationUrl: `https://${shop}/admin/charges/${charge.id.split("/").pop()}/confirm_recurring_application_charge`,
          userErrors: [],
        },
      };
    }
    case "appSubscriptionCancel": {
      const charge = (charges[shop] ?? []).find((c) => c.id === variables.id)!;
      charge.status = "CANCELLED";
      return { appSubscriptionCancel: { appSubscription: chargeNode(charge), userErrors: [] } };
    }
    default:
      throw new Error(`the fake Admin API does not know ${operation}`);
  }
}

// The library captures `fetch` when it is first imported: the spy must be in place before. Only this test's own
// server (127.0.0.1) is reached for real.
const realFetch = globalThis.fetch.bind(globalThis);
const fetchSpy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (url.hostname === "127.0.0.1") return realFetch(input, init);
  const shop = url.hostname;
  const token = new Headers(init?.headers).get("X-Shopify-Access-Token");
  if (!/^\/admin\/api\/[\w-]+\/graphql\.json$/.test(url.pathname) || token !== `token-${shop}`) {
    return new Response(JSON.stringify({ errors: "[API] Invalid API key or access token" }), { status: 401 });
  }
  const body = JSON.parse(String(init?.body));
  try {
    return new Response(JSON.stringify({ data: await answer(shop, body.query, body.variables ?? {}) }), {
      status: 200,
      headers: { "Content-Type": "application/json" },
    });
  } catch (error) {
    if (!(error instanceof ThrottledError)) throw error;
    // Shopify's answer when a query's cost is over the bucket's points left.
    const errors = [{ message: "Throttled", extensions: { code: "THROTTLED" } }];
    return new Response(JSON.stringify({ errors, extensions: { cost: { throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 0, restoreRate: 100 } } } }), {
      status: 200,
      headers: { "Content-Type": "application/json" },
    });
  }
});

class ThrottledError extends Error {}

/** What the staged upload stored in the S3 server (as Shopify reads it to process the model); null when absent. */
async function readStaged(resourceUrl: string): Promise<Uint8Array | null> {
  const s3 = s3TestConfig()!;
  const key = decodeURIComponent(new URL(resourceUrl).pathname.split("/").slice(2).join("/"));
  const client = new S3Client({ endpoint: s3.endpoint, region: "us-east-1", forcePathStyle: true, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } });
  try {
    const object = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
    return await object.Body!.transformToByteArray();
  } catch {
    return null;
  }
}

const { db } = await import("~/db.server");
const { sessionStorage } = await import("~/auth/session.server");
const { apiVersion, shopify } = await import("~/shopify.server");
const { issueConnectToken } = await import("~/domain/shop-connect.server");
const { buildModelMetafield } = await import("~/lib/shopify-model-metafield");
const { storage } = await import("~/storage/index.server");
const { shopifyGlbKey } = await import("~/domain/product-media.server");
const { storefrontsShowingItemChanged } = await import("~/domain/storefront-sync.server");
const home = await import("~/routes/app._index");
const productsPage = await import("~/routes/app.products._index");
const productPage = await import("~/routes/app.products.$id");
const bulkPage = await import("~/routes/app.bulk");
const plansPage = await import("~/routes/app.plans");
const connectPage = await import("~/routes/auth_.connect.shopify");
const siteDashboard = await import("~/routes/shopify.dashboard");
const productsDelete = await import("~/routes/webhooks.products.delete");
const subscriptionsUpdate = await import("~/routes/webhooks.app_subscriptions.update");
const appUninstalled = await import("~/routes/webhooks.app.uninstalled");

const SHARED_MODELS = path.join(SHARED_DATA, "models");

/** The JSON chunk of a GLB. */
function glbJson(glb: Uint8Array): any {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  return JSON.parse(Buffer.from(glb.subarray(20, 20 + view.getUint32(12, true))).toString("utf8"));
}

// ── Helpers ───────────────────────────────────────────────────────────────────────────────────────────
const DESKTOP_UA =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const domain = (name: string) => `${name}.myshopify.com`;
const args = (request: Request, params: Record<string, string> = {}) => ({ request, params, context: {} });

/** What a loader/action returned (a Response's JSON body and status), or the Response it threw. */
async function run(promise: Promise<unknown>): Promise<{ status: number; body: any; thrown: boolean; headers: Headers }> {
  try {
    const value = await promise;
    if (value instanceof Response) return { status: value.status, body: await value.json().catch(() => null), thrown: false, headers: value.headers };
    return { status: 200, body: value, thrown: false, headers: new Headers() };
  } catch (error) {
    if (error instanceof Response) return { status: error.status, body: null, thrown: true, headers: error.headers };
    throw error;
  }
}

async function adminRequest(name: string, path: string, form?: Record<string, string>) {
  const { token } = await getJwt(name, API_KEY, API_SECRET);
  return new Request(`${APP_URL}${path}`, {
    method: form ? "POST" : "GET",
    headers: { Authorization: `Bearer ${token}`, "User-Agent": DESKTOP_UA, ...(form ? { "Content-Type": "application/x-www-form-urlencoded" } : {}) },
    body: form ? new URLSearchParams(form) : undefined,
  });
}

let seq = 0;
async function createUser() {
  seq += 1;
  return db().user.create({ data: { firebaseUid: `shopify-admin-${seq}`, email: `merchant-${seq}@example.com` } });
}

async function createModel(ownerId: string, overrides: Record<string, unknown> = {}) {
  seq += 1;
  const item = await db().item.create({
    data: { ownerId, name: `Model ${seq}`, modelType: "glb", uploadType: "model", status: "ready", visibility: "public", ...overrides },
  });
  return db().item.update({ where: { id: item.id }, data: { thumbnailKey: `items/${item.id}/thumbnail/t${seq}.png` } });
}

/** An installed shop (offline session with its own token, Shop row), connected to a new account unless told not. */
async function installShop(name: string, { connected = true } = {}) {
  const session = setUpValidSession({ shop: domain(name), expires: undefined });
  session.accessToken = `token-${domain(name)}`;
  session.scope = "read_products,write_products";
  await shopify().sessionStorage.storeSession(session);
  const user = connected ? await createUser() : null;
  const shop = await db().shop.create({ data: { shopDomain: domain(name), userId: user?.id ?? null } });
  return { shop, user };
}

const callsOf = (operation: string, shop?: string) => adminCalls.filter((c) => c.operation === operation && (!shop || c.shop === domain(shop)));
const linksOf = (name: string) =>
  db().productModelLink.findMany({ where: { shop: { shopDomain: domain(name) } }, orderBy: [{ productGid: "asc" }, { variantGid: "asc" }] });

/**
 * The metafield writes (set or delete) the fake Admin API has received, once there are `count`. A change to a
 * model returns at once; the re-sync runs as a queued job with the shop's offline token.
 */
async function metafieldWrites(count: number) {
  const writes = () => adminCalls.filter((c) => c.operation === "ScanroomSetModel" || c.operation === "ScanroomDeleteModel");
  const deadline = Date.now() + 60_000;
  while (writes().length < count) {
    if (Date.now() > deadline) throw new Error(`the storefront re-sync did not run: ${writes().length} of ${count} metafield writes`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return writes();
}
const writtenModel = (write: { variables: Record<string, any> }) => JSON.parse(write.variables.metafields[0].value);

const CHAIR: FakeProduct = { id: 101, title: "Oak chair", handle: "oak-chair", variants: [{ id: 1011, title: "Oak" }, { id: 1012, title: "Walnut" }] };
const LAMP: FakeProduct = { id: 102, title: "Brass lamp", handle: "brass-lamp", variants: [{ id: 1021, title: "Default Title" }] };
const SOFA: FakeProduct = { id: 201, title: "Shop B sofa", handle: "sofa", variants: [{ id: 2011, title: "Default Title" }] };

beforeEach(async () => {
  fetchSpy.mockClear();
  adminCalls.length = 0;
  refuseMetafieldFor.clear();
  for (const key of Object.keys(charges)) delete charges[key];
  for (const key of Object.keys(productMedia)) delete productMedia[key];
  Object.assign(mediaOutcome, { failNext: null, throttleNextStage: false });
  await db().productMedia.deleteMany({});
  const fillers = Array.from({ length: 22 }, (_, i) => ({ id: 300 + i, title: `Zz filler ${String(i).padStart(2, "0")}`, handle: `filler-${i}`, variants: [{ id: 3000 + i, title: "Default Title" }] }));
  catalogs[domain("shop-a")] = [LAMP, CHAIR, ...fillers];
  catalogs[domain("shop-b")] = [SOFA];
  await db().webhookEvent.deleteMany({});
  await db().productModelLink.deleteMany({});
  await db().shop.deleteMany({});
  await db().shopifySession.deleteMany({});
});

// This file runs the admin's routes and the domain in its own process, as a web process does: with the outbox's
// relay, which hands the storefront re-syncs the domain records to their queue (docs/decisions/043).
beforeAll(async () => {
  const { startOutboxRelay } = await import("~/jobs/outbox-relay.server");
  startOutboxRelay();
});

afterAll(async () => {
  const { stopOutboxRelay } = await import("~/jobs/outbox-relay.server");
  await stopOutboxRelay();
  const { stopQueue } = await import("~/jobs/queue.server");
  await stopQueue(); // the storefront re-sync jobs' queue
});

// ── Products and links ────────────────────────────────────────────────────────────────────────────────
describe("products and links in the embedded admin", () => {
  it("lists the store's products with their variants, searchable and paginated, with this shop's token", async () => {
    const { user } = await installShop("shop-a");
    const model = await createModel(user!.id);
    await db().productModelLink.create({ data: { shopId: (await db().shop.findFirstOrThrow()).id, productGid: "gid://shopify/Product/101", itemId: model.id } });

    const first = await run(productsPage.loader(args(await adminRequest("shop-a", "/app/products"))));
    expect(first.body.products).toHaveLength(20);
    expect(first.body.pageInfo.hasNextPage).toBe(true);
    const chair = first.body.products.find((p: { id: string }) => p.id === "101");
    expect(chair).toMatchObject({ title: "Oak chair", handle: "oak-chair", variantCount: 2, wholeProductModel: model.name, variantModels: 0 });

    const second = await run(productsPage.loader(args(await adminRequest("shop-a", `/app/products?after=${encodeURIComponent(first.body.pageInfo.endCursor)}`))));
    expect(second.body.products).toHaveLength(4);
    expect(second.body.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });

    const search = await run(productsPage.loader(args(await adminRequest("shop-a", "/app/products?q=chair%22%3A"))));
    expect(search.body.products.map((p: { title: string }) => p.title)).toEqual(["Oak chair"]);
    expect(callsOf("ScanroomProducts").map((c) => c.variables.query ?? null)).toEqual([null, null, "chair"]);
  });

  it("attaches a model to the product and to one variant: each writes the link and the $app metafield", async () => {
    const { user } = await installShop("shop-a");
    const chairModel = await createModel(user!.id);
    const walnutModel = await createModel(user!.id);

    const whole = await run(productPage.action(args(await adminRequest("shop-a", "/app/products/101", { intent: "attach", variantGid: "", itemId: chairModel.id }), { id: "101" })));
    expect(whole).toMatchObject({ status: 200, body: { ok: true } });
    const walnut = await run(
      productPage.action(
        args(await adminRequest("shop-a", "/app/products/101", { intent: "attach", variantGid: "gid://shopify/ProductVariant/1012", itemId: walnutModel.id }), { id: "101" }),
      ),
    );
    expect(walnut.status).toBe(200);

    expect((await linksOf("shop-a")).map((l) => [l.productGid, l.variantGid, l.itemId])).toEqual([
      ["gid://shopify/Product/101", "", chairModel.id],
      ["gid://shopify/Product/101", "gid://shopify/ProductVariant/1012", walnutModel.id],
    ]);
    const writes = callsOf("ScanroomSetModel", "shop-a");
    expect(writes).toHaveLength(2);
    const input = writes[1].variables.metafields[0];
    expect(input).toMatchObject({ ownerId: "gid://shopify/Product/101", namespace: "$app:scanroom", key: "model", type: "json" });
    expect(JSON.parse(input.value)).toEqual(
      buildModelMetafield(
        [
          { variantGid: "", item: chairModel },
          { variantGid: "gid://shopify/ProductVariant/1012", item: walnutModel },
        ],
        APP_URL,
      ),
    );
    expect(JSON.parse(input.value).variants["1012"].poster).toBe(`${APP_URL}/v1/item/${walnutModel.id}/thumbnail?v=${walnutModel.thumbnailKey!.split("/").pop()}`);

    const page = await run(productPage.loader(args(await adminRequest("shop-a", "/app/products/101"), { id: "101" })));
    expect(page.body.rows.map((r: { title: string; model: { id: string } | null }) => [r.title, r.model?.id ?? null])).toEqual([
      ["Whole product (every variant without its own model)", chairModel.id],
      ["Oak", null],
      ["Walnut", walnutModel.id],
    ]);
  });

  it("detaches: the metafield is rewritten, and deleted with the product's last link", async () => {
    const { user } = await installShop("shop-a");
    const [a, b] = [await createModel(user!.id), await createModel(user!.id)];
    for (const [variantGid, itemId] of [["", a.id], ["gid://shopify/ProductVariant/1011", b.id]]) {
      await run(productPage.action(args(await adminRequest("shop-a", "/app/products/101", { intent: "attach", variantGid, itemId }), { id: "101" })));
    }
    adminCalls.length = 0;

    expect((await run(productPage.action(args(await adminRequest("shop-a", "/app/products/101", { intent: "detach", variantGid: "" }), { id: "101" })))).status).toBe(200);
    expect(JSON.parse(callsOf("ScanroomSetModel")[0].variables.metafields[0].value)).toMatchObject({ product: null, variants: { "1011": { id: b.id } } });
    expect((await run(productPage.action(args(await adminRequest("shop-a", "/app/products/101", { intent: "detach", variantGid: "gid://shopify/ProductVariant/1011" }), { id: "101" })))).status).toBe(200);
    expect(callsOf("ScanroomDeleteModel")[0].variables.metafields).toEqual([{ ownerId: "gid://shopify/Product/101", namespace: "$app:scanroom", key: "model" }]);
    expect(await linksOf("shop-a")).toEqual([]);
    // Nothing left to detach: 404.
    expect((await run(productPage.action(args(await adminRequest("shop-a", "/app/products/101", { intent: "detach", variantGid: "" }), { id: "101" })))).status).toBe(404);
  });

  it("follows the model on the storefront: made private, public again, then deleted, the product's metafield is rewritten", async () => {
    const { user } = await installShop("shop-a");
    const [a, b] = [await createModel(user!.id), await createModel(user!.id)];
    for (const [variantGid, itemId] of [["", a.id], ["gid://shopify/ProductVariant/1011", b.id]]) {
      await run(productPage.action(args(await adminRequest("shop-a", "/app/products/101", { intent: "attach", variantGid, itemId }), { id: "101" })));
    }
    const { updateItem, deleteItem } = await import("~/domain/items.server");
    const lastWrite = async (count: number) => (await metafieldWrites(count)).at(-1)!;
    adminCalls.length = 0;

    await updateItem({ itemId: a.id, ownerId: user!.id, changes: { visibility: "private" } });
    const hidden = await lastWrite(1);
    expect(hidden).toMatchObject({ shop: domain("shop-a"), operation: "ScanroomSetModel" });
    expect(JSON.parse(hidden.variables.metafields[0].value)).toMatchObject({ product: null, variants: { "1011": { id: b.id } } });
    expect(await linksOf("shop-a")).toHaveLength(2); // kept, for when the model is visible again

    await updateItem({ itemId: a.id, ownerId: user!.id, changes: { visibility: "unlisted" } });
    expect(JSON.parse((await lastWrite(2)).variables.metafields[0].value)).toMatchObject({ product: { id: a.id }, variants: { "1011": { id: b.id } } });

    await deleteItem({ itemId: b.id, ownerId: user!.id });
    const afterDelete = JSON.parse((await lastWrite(3)).variables.metafields[0].value);
    expect(afterDelete).toMatchObject({ product: { id: a.id } });
    expect(afterDelete.variants).toEqual({});
    await deleteItem({ itemId: a.id, ownerId: user!.id });
    expect(await lastWrite(4)).toMatchObject({ operation: "ScanroomDeleteModel", variables: { metafields: [{ ownerId: "gid://shopify/Product/101" }] } });
    expect(await linksOf("shop-a")).toEqual([]);
    // Only this shop's product was touched, with this shop's token.
    expect(new Set(adminCalls.map((c) => c.shop))).toEqual(new Set([domain("shop-a")]));
  });

  it("follows an admin's moderation: unpublished, the model leaves the product's metafield; restored, it is back", async () => {
    const { user } = await installShop("shop-a");
    const admin = await db().user.update({ where: { id: (await createUser()).id }, data: { isAdmin: true } });
    const [a, b] = [await createModel(user!.id), await createModel(user!.id)];
    for (const [variantGid, itemId] of [["", a.id], ["gid://shopify/ProductVariant/1011", b.id]]) {
      await run(productPage.action(args(await adminRequest("shop-a", "/app/products/101", { intent: "attach", variantGid, itemId }), { id: "101" })));
    }
    const { unpublishItem, restoreItem } = await import("~/domain/moderation.server");
    adminCalls.length = 0;

    await unpublishItem({ itemId: a.id, reason: "Copyrighted scan", actorId: admin.id });
    const [hidden] = await metafieldWrites(1);
    expect(hidden).toMatchObject({ shop: domain("shop-a"), operation: "ScanroomSetModel", variables: { metafields: [{ ownerId: "gid://shopify/Product/101" }] } });
    expect(writtenModel(hidden)).toMatchObject({ product: null, variants: { "1011": { id: b.id } } });

    await restoreItem({ itemId: a.id, actorId: admin.id });
    const [, shown] = await metafieldWrites(2);
    expect(writtenModel(shown)).toMatchObject({ product: { id: a.id, name: a.name }, variants: { "1011": { id: b.id } } });
    expect(await linksOf("shop-a")).toHaveLength(2);
  });

  it("follows a disabled account: each product showing its models loses them, and gets them back when it is enabled", async () => {
    const a = await installShop("shop-a");
    const b = await installShop("shop-b");
    const admin = await db().user.update({ where: { id: (await createUser()).id }, data: { isAdmin: true } });
    const [chairModel, lampModel] = [await createModel(a.user!.id), await createModel(a.user!.id)];
    const sofaModel = await createModel(b.user!.id);
    for (const [id, itemId] of [["101", chairModel.id], ["102", lampModel.id]]) {
      await run(productPage.action(args(await adminRequest("shop-a", `/app/products/${id}`, { intent: "attach", variantGid: "", itemId }), { id })));
    }
    await run(productPage.action(args(await adminRequest("shop-b", "/app/products/201", { intent: "attach", variantGid: "", itemId: sofaModel.id }), { id: "201" })));
    const { setUserDisabled } = await import("~/domain/admin-users.server");
    adminCalls.length = 0;

    await setUserDisabled({ userId: a.user!.id, disabled: true, reason: "Spam", actorId: admin.id });
    const removed = await metafieldWrites(2);
    // Nothing of the account is left to show on either product: each metafield is deleted. Shop B's is not touched.
    expect(removed.map((w) => [w.shop, w.operation, w.variables.metafields[0].ownerId]).sort()).toEqual([
      [domain("shop-a"), "ScanroomDeleteModel", "gid://shopify/Product/101"],
      [domain("shop-a"), "ScanroomDeleteModel", "gid://shopify/Product/102"],
    ]);

    await setUserDisabled({ userId: a.user!.id, disabled: false, actorId: admin.id });
    const restored = (await metafieldWrites(4)).slice(2);
    expect(restored.map((w) => [w.shop, w.operation, w.variables.metafields[0].ownerId, writtenModel(w).product.id]).sort()).toEqual([
      [domain("shop-a"), "ScanroomSetModel", "gid://shopify/Product/101", chairModel.id],
      [domain("shop-a"), "ScanroomSetModel", "gid://shopify/Product/102", lampModel.id],
    ]);
    expect(new Set(adminCalls.map((c) => c.shop))).toEqual(new Set([domain("shop-a")]));
    expect(await linksOf("shop-a")).toHaveLength(2);
  });

  it("refuses models the storefront cannot show or that are not the account's (404), writing nothing", async () => {
    const { user } = await installShop("shop-a");
    const stranger = await createUser();
    const refused = [
      await createModel(user!.id, { visibility: "private" }),
      await createModel(user!.id, { status: "processing" }),
      await createModel(stranger.id),
    ];
    for (const item of refused) {
      const result = await run(productPage.action(args(await adminRequest("shop-a", "/app/products/101", { intent: "attach", variantGid: "", itemId: item.id }), { id: "101" })));
      expect(result).toMatchObject({ status: 404, body: { ok: false, error: "Model not found." } });
    }
    // A variant of another product is not this product's.
    const mine = await createModel(user!.id);
    const wrongVariant = await run(
      productPage.action(args(await adminRequest("shop-a", "/app/products/101", { intent: "attach", variantGid: "gid://shopify/ProductVariant/1021", itemId: mine.id }), { id: "101" })),
    );
    expect(wrongVariant.status).toBe(404);
    expect(await linksOf("shop-a")).toEqual([]);
    expect(callsOf("ScanroomSetModel")).toEqual([]);
  });

  it("shop A can never read or change shop B's links (404)", async () => {
    const a = await installShop("shop-a");
    const b = await installShop("shop-b");
    const bModel = await createModel(b.user!.id);
    const aModel = await createModel(a.user!.id);
    await run(productPage.action(args(await adminRequest("shop-b", "/app/products/201", { intent: "attach", variantGid: "", itemId: bModel.id }), { id: "201" })));
    const before = await linksOf("shop-b");
    expect(before).toHaveLength(1);
    adminCalls.length = 0;

    expect((await run(productPage.loader(args(await adminRequest("shop-a", "/app/products/201"), { id: "201" })))).status).toBe(404);
    const forms: Array<Record<string, string>> = [
      { intent: "attach", variantGid: "", itemId: aModel.id },
      { intent: "attach", variantGid: "", itemId: bModel.id },
      { intent: "detach", variantGid: "" },
    ];
    for (const form of forms) {
      const result = await run(productPage.action(args(await adminRequest("shop-a", "/app/products/201", form), { id: "201" })));
      expect(result.status, JSON.stringify(form)).toBe(404);
    }
    expect(await linksOf("shop-b")).toEqual(before);
    expect(await linksOf("shop-a")).toEqual([]);
    // Every Admin API call went to shop A with shop A's token; none wrote a metafield.
    expect(new Set(adminCalls.map((c) => c.shop))).toEqual(new Set([domain("shop-a")]));
    expect(callsOf("ScanroomSetModel")).toEqual([]);
  });

  it("needs a connected account, and keeps to the plan's link quota (free: 3)", async () => {
    await installShop("shop-c", { connected: false });
    const owner = await createUser();
    const model = await createModel(owner.id);
    const unconnected = await run(productPage.action(args(await adminRequest("shop-c", "/app/products/101", { intent: "attach", variantGid: "", itemId: model.id }), { id: "101" })));
    expect(unconnected).toMatchObject({ status: 403, body: { error: "Connect this store to a Scanroom account first." } });

    const { user } = await installShop("shop-a");
    const item = await createModel(user!.id);
    const targets = [["101", ""], ["101", "gid://shopify/ProductVariant/1011"], ["102", ""], ["101", "gid://shopify/ProductVariant/1012"]];
    const statuses = [];
    for (const [id, variantGid] of targets) {
      statuses.push((await run(productPage.action(args(await adminRequest("shop-a", `/app/products/${id}`, { intent: "attach", variantGid, itemId: item.id }), { id })))).status);
    }
    expect(statuses).toEqual([200, 200, 200, 402]);
    // Replacing the model on an existing link is not a new link.
    const other = await createModel(user!.id);
    expect((await run(productPage.action(args(await adminRequest("shop-a", "/app/products/102", { intent: "attach", variantGid: "", itemId: other.id }), { id: "102" })))).status).toBe(200);
    expect(await linksOf("shop-a")).toHaveLength(3);
  });

  it("keeps no link when Shopify refuses the metafield write", async () => {
    const { user } = await installShop("shop-a");
    const model = await createModel(user!.id);
    refuseMetafieldFor.add("gid://shopify/Product/101");
    await expect(
      productPage.action(args(await adminRequest("shop-a", "/app/products/101", { intent: "attach", variantGid: "", itemId: model.id }), { id: "101" })),
    ).rejects.toThrow("Shopify refused the metafield write: Value is invalid JSON.");
    expect(await linksOf("shop-a")).toEqual([]);
  });

  it("bulk-attaches from a CSV by product handle, reporting each line it could not attach", async () => {
    const { user } = await installShop("shop-a");
    const [chairModel, lampModel] = [await createModel(user!.id), await createModel(user!.id)];
    const csv = [
      "handle,model_id,variant_id",
      `oak-chair,${chairModel.id}`,
      `brass-lamp,${lampModel.id},1021`,
      `no-such-product,${lampModel.id}`,
      `oak-chair,not-a-model`,
      `sofa,${chairModel.id}`, // shop B's product: not found in this store
    ].join("\n");
    const result = await run(bulkPage.action(args(await adminRequest("shop-a", "/app/bulk", { csv }))));
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      error: null,
      attached: 2,
      addToMedia: false,
      failures: [
        { line: 5, handle: "", message: '"not-a-model" is not a model id.' },
        { line: 4, handle: "no-such-product", message: "No product with this handle." },
        { line: 6, handle: "sofa", message: "No product with this handle." },
      ],
    });
    expect((await linksOf("shop-a")).map((l) => [l.productGid, l.variantGid, l.itemId])).toEqual([
      ["gid://shopify/Product/101", "", chairModel.id],
      ["gid://shopify/Product/102", "gid://shopify/ProductVariant/1021", lampModel.id],
    ]);
    // One lookup for all handles, then one metafield write per attached product.
    expect(callsOf("ScanroomProducts")).toHaveLength(1);
    expect(callsOf("ScanroomProducts")[0].variables.query).toBe("handle:oak-chair OR handle:brass-lamp OR handle:no-such-product OR handle:sofa");
    expect(callsOf("ScanroomSetModel").map((c) => c.variables.metafields[0].ownerId)).toEqual(["gid://shopify/Product/101", "gid://shopify/Product/102"]);
  });
});

// ── The product's own 3D media (issue 40) ─────────────────────────────────────────────────────────────
describe("the product's own 3D media", () => {
  const CHAIR_GID = "gid://shopify/Product/101";
  let scanMesh: Uint8Array; // a scan's web GLB: meshopt geometry, WebP atlas (what the worker publishes)
  let rescanMesh: Uint8Array;
  const FOREIGN: FakeMedia = { id: "gid://shopify/Model3d/42", alt: "The merchant's own model", contentType: "MODEL_3D", status: "READY" };

  beforeAll(async () => {
    const { compressGlbForWeb } = await import("~/worker/web-glb.server");
    scanMesh = await compressGlbForWeb(new Uint8Array(readFileSync(path.join(SHARED_MODELS, "cat.glb"))));
    rescanMesh = await compressGlbForWeb(new Uint8Array(readFileSync(path.join(SHARED_MODELS, "SpecularTest.glb"))));
  });

  /** A ready scan whose mesh is stored like the worker stores it; `mesh` null: a splat with no mesh. */
  async function createScan(ownerId: string, mesh: Uint8Array | null) {
    const item = await createModel(ownerId, { modelType: "ply", uploadType: "video", fileFormat: "ply", fileKey: "unused.ply" });
    if (!mesh) return item;
    const meshKey = `items/${item.id}/scan/mesh-${++seq}.glb`;
    await storage().write(meshKey, mesh);
    return db().item.update({ where: { id: item.id }, data: { meshKey } });
  }

  const attach = async (itemId: string, addToMedia: "on" | "off", variantGid = "") =>
    run(productPage.action(args(await adminRequest("shop-a", "/app/products/101", { intent: "attach", variantGid, itemId, addToMedia }), { id: "101" })));
  const mediaRows = () => db().productMedia.findMany({ where: { productGid: CHAIR_GID }, orderBy: { createdAt: "asc" } });
  async function mediaSettled(check: (rows: Awaited<ReturnType<typeof mediaRows>>) => boolean, what: string) {
    const deadline = Date.now() + 90_000;
    for (;;) {
      const rows = await mediaRows();
      if (check(rows)) return rows;
      if (Date.now() > deadline) throw new Error(`the product media did not settle (${what}): ${JSON.stringify(rows)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  const ourMedia = () => (productMedia[CHAIR_GID] ?? []).filter((m) => m.ours);

  it("a scan linked with the option goes up as a Shopify-ready GLB, becomes the product's 3D media, and its state shows", async () => {
    productMedia[CHAIR_GID] = [{ ...FOREIGN }];
    const { user } = await installShop("shop-a");
    const scan = await createScan(user!.id, scanMesh);
    const models = await run(productPage.loader(args(await adminRequest("shop-a", "/app/products/101"), { id: "101" })));
    expect(models.body.models.find((m: { value: string }) => m.value === scan.id)).toMatchObject({ hasMesh: true });

    expect(await attach(scan.id, "on")).toMatchObject({ status: 200, body: { ok: true } });
    // The queued re-sync pushes it; Shopify processes it, and the next check (20 s later) reads it ready.
    const [pushed] = await mediaSettled((rows) => rows.length === 1 && ["processing", "ready"].includes(rows[0]!.status), "pushed");
    const stage = callsOf("ScanroomStageModel", "shop-a")[0]!.variables.input[0];
    expect(stage).toMatchObject({ resource: "MODEL_3D", mimeType: "model/gltf-binary", httpMethod: "POST", filename: `${scan.name.replace(/\s+/g, "-")}.glb` });
    const [media] = ourMedia();
    expect(media).toMatchObject({ id: pushed!.mediaGid, alt: scan.name, contentType: "MODEL_3D" });
    expect(Number(stage.fileSize)).toBe(media!.bytes!.length);
    // What Shopify received is the GLB kept beside the model: core glTF, JPEG/PNG textures, valid, within the limits.
    const kept = new Uint8Array(await buffer(await storage().createReadStream(shopifyGlbKey(scan.id, scan.meshKey!))));
    expect(Buffer.compare(Buffer.from(kept), Buffer.from(media!.bytes!))).toBe(0);
    const json = glbJson(media!.bytes!);
    expect(json.extensionsUsed ?? []).not.toEqual(expect.arrayContaining(["EXT_meshopt_compression"]));
    expect((json.extensionsUsed ?? []).filter((name: string) => ["EXT_meshopt_compression", "EXT_texture_webp", "KHR_mesh_quantization", "KHR_draco_mesh_compression"].includes(name))).toEqual([]);
    expect(json.images.map((image: { mimeType: string }) => image.mimeType).every((type: string) => type === "image/jpeg" || type === "image/png")).toBe(true);
    const { assertValidGltf } = await import("~/worker/gltf-validation.server");
    const validated = await assertValidGltf(media!.bytes!);
    expect(media!.bytes!.length).toBeLessThanOrEqual(15 * 1024 * 1024);
    process.stdout.write(`product media: scan GLB ${scanMesh.length} bytes -> Shopify-ready ${media!.bytes!.length} bytes, ${validated.triangles} triangles, ${validated.warnings} validator warnings\n`);
    expect(productMedia[CHAIR_GID]).toContainEqual(FOREIGN);

    const [ready] = await mediaSettled((rows) => rows[0]?.status === "ready", "ready");
    expect(ready).toMatchObject({ mediaGid: media!.id, glbBytes: media!.bytes!.length });
    const page = await run(productPage.loader(args(await adminRequest("shop-a", "/app/products/101"), { id: "101" })));
    expect(page.body.rows[0]).toMatchObject({ addToMedia: true, media: { tone: "success", label: "In the product's media", failed: false } });
    const list = await run(productsPage.loader(args(await adminRequest("shop-a", "/app/products"))));
    expect(list.body.products.find((p: { id: string }) => p.id === "101").media).toEqual({ tone: "success", label: "In the product's media" });
  }, 150_000);

  it("a re-scan replaces our media, turning the option off removes it, and the merchant's own media is never touched", async () => {
    productMedia[CHAIR_GID] = [{ ...FOREIGN }];
    const { user } = await installShop("shop-a");
    const scan = await createScan(user!.id, scanMesh);
    await attach(scan.id, "on");
    const [first] = await mediaSettled((rows) => ["processing", "ready"].includes(rows[0]?.status ?? ""), "first push");

    // The re-scan publishes a new mesh: a new GLB goes up, then the one it replaces is deleted.
    const meshKey = `items/${scan.id}/scan/mesh-rescan.glb`;
    await storage().write(meshKey, rescanMesh);
    await db().item.update({ where: { id: scan.id }, data: { meshKey } });
    await storefrontsShowingItemChanged(scan.id);
    const [second] = await mediaSettled((rows) => rows[0]?.sourceKey === meshKey && rows[0].status !== "uploading" && rows[0].retiredMediaGids.length === 0, "replaced");
    expect(second!.mediaGid).not.toBe(first!.mediaGid);
    expect(ourMedia().map((m) => m.id)).toEqual([second!.mediaGid]);
    expect(callsOf("ScanroomDeleteModelMedia").map((c) => c.variables.fileIds)).toEqual([[first!.mediaGid]]);

    // A rename: the same media, its alt text follows the model's name.
    const { updateItem } = await import("~/domain/items.server");
    await updateItem({ itemId: scan.id, ownerId: user!.id, changes: { name: "Oak chair, scanned again" } });
    await mediaSettled((rows) => rows[0]?.alt === "Oak chair, scanned again", "renamed");
    expect(ourMedia().map((m) => [m.id, m.alt])).toEqual([[second!.mediaGid, "Oak chair, scanned again"]]);

    // Off: ours goes, the merchant's stays; the link and the storefront block stay.
    const off = await run(productPage.action(args(await adminRequest("shop-a", "/app/products/101", { intent: "media", variantGid: "", addToMedia: "off" }), { id: "101" })));
    expect(off).toMatchObject({ status: 200, body: { ok: true, message: "Product media updated" } });
    await mediaSettled((rows) => rows.length === 0, "removed");
    expect(productMedia[CHAIR_GID]).toEqual([FOREIGN]);
    expect(await linksOf("shop-a")).toHaveLength(1);
    expect(callsOf("ScanroomDeleteModelMedia").flatMap((c) => c.variables.fileIds)).not.toContain(FOREIGN.id);
  }, 150_000);

  it("Shopify's processing failure shows its reason, and Retry pushes again in place of the failed one", async () => {
    const { user } = await installShop("shop-a");
    const scan = await createScan(user!.id, scanMesh);
    mediaOutcome.failNext = "Model file exceeds the maximum number of textures.";
    await attach(scan.id, "on");
    const [failed] = await mediaSettled((rows) => rows[0]?.status === "failed", "failed");
    const page = await run(productPage.loader(args(await adminRequest("shop-a", "/app/products/101"), { id: "101" })));
    expect(page.body.rows[0].media).toEqual({ tone: "critical", label: "Not in the product's media: Model file exceeds the maximum number of textures.", failed: true });

    const retry = await run(productPage.action(args(await adminRequest("shop-a", "/app/products/101", { intent: "retry-media", variantGid: "" }), { id: "101" })));
    expect(retry).toMatchObject({ status: 200, body: { ok: true } });
    const [again] = await mediaSettled((rows) => rows[0]?.status === "ready" && rows[0].retiredMediaGids.length === 0, "retried");
    expect(again!.mediaGid).not.toBe(failed!.mediaGid);
    expect(ourMedia().map((m) => m.id)).toEqual([again!.mediaGid]);
  }, 150_000);

  it("a splat without a mesh says so and pushes nothing; deleting a model removes its media", async () => {
    productMedia[CHAIR_GID] = [{ ...FOREIGN }];
    const { user } = await installShop("shop-a");
    const splat = await createScan(user!.id, null);
    const scan = await createScan(user!.id, scanMesh);
    await attach(splat.id, "on");
    await attach(scan.id, "on", "gid://shopify/ProductVariant/1011");
    const page = await run(productPage.loader(args(await adminRequest("shop-a", "/app/products/101"), { id: "101" })));
    expect(page.body.models.find((m: { value: string }) => m.value === splat.id)).toMatchObject({ hasMesh: false });
    expect(page.body.rows[0]).toMatchObject({ model: { id: splat.id, hasMesh: false } });
    // A check may read it ready before a look sees it processing: either way the scan's media is the only one.
    const rows = await mediaSettled((r) => r.length === 1 && ["processing", "ready"].includes(r[0]!.status), "the scan's media only");
    expect(rows[0]!.itemId).toBe(scan.id);
    expect(callsOf("ScanroomStageModel")).toHaveLength(1);

    const { deleteItem } = await import("~/domain/items.server");
    await deleteItem({ itemId: scan.id, ownerId: user!.id });
    await mediaSettled((r) => r.length === 0, "deleted with its model");
    expect(productMedia[CHAIR_GID]).toEqual([FOREIGN]);
  }, 150_000);

  it("the bulk import with the option puts each product's mesh in its media, one job per product", async () => {
    const { user } = await installShop("shop-a");
    const [chairScan, lampScan] = [await createScan(user!.id, scanMesh), await createScan(user!.id, rescanMesh)];
    const csv = ["handle,model_id", `oak-chair,${chairScan.id}`, `brass-lamp,${lampScan.id}`].join("\n");
    const result = await run(bulkPage.action(args(await adminRequest("shop-a", "/app/bulk", { csv, addToMedia: "on" }))));
    expect(result.body).toMatchObject({ error: null, attached: 2, addToMedia: true });
    const deadline = Date.now() + 90_000;
    while ((await db().productMedia.count({ where: { status: "ready" } })) < 2) {
      if (Date.now() > deadline) throw new Error(`bulk media: ${JSON.stringify(await db().productMedia.findMany())}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const byProduct = Object.fromEntries(Object.entries(productMedia).map(([product, list]) => [product, list.filter((m) => m.ours).map((m) => m.alt)]));
    expect(byProduct).toEqual({ [CHAIR_GID]: [chairScan.name], "gid://shopify/Product/102": [lampScan.name] });
  }, 150_000);

  it("a sync that Shopify throttles mid-way is resumed by the next run without a second copy of the model", async () => {
    const { user } = await installShop("shop-a");
    const scan = await createScan(user!.id, scanMesh);
    const shop = await db().shop.findFirstOrThrow({ where: { shopDomain: domain("shop-a") } });
    await db().productModelLink.create({ data: { shopId: shop.id, productGid: CHAIR_GID, itemId: scan.id, addToMedia: true } });
    const { resyncProduct } = await import("~/domain/storefront-sync.server");
    mediaOutcome.throttleNextStage = true;
    await expect(resyncProduct({ shopDomain: domain("shop-a"), productGid: CHAIR_GID })).rejects.toThrow();
    expect((await mediaRows()).map((row) => row.status)).toEqual(["uploading"]);
    expect(ourMedia()).toEqual([]);
    // The queue's retry: the same job again.
    expect(await resyncProduct({ shopDomain: domain("shop-a"), productGid: CHAIR_GID })).toEqual({ status: "synced", mediaProcessing: 1 });
    expect(ourMedia()).toHaveLength(1);
    expect(await resyncProduct({ shopDomain: domain("shop-a"), productGid: CHAIR_GID })).toEqual({ status: "synced", mediaProcessing: 0 });
    expect(ourMedia()).toHaveLength(1);
    expect((await mediaRows()).map((row) => row.status)).toEqual(["ready"]);
  }, 150_000);
});

describe("the embedded admin pages in a browser-like document load", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it("renders every page (Polaris, server-side) for the shop of the session token", async () => {
    const { user } = await installShop("shop-a");
    const model = await createModel(user!.id);
    await db().productModelLink.create({ data: { shopId: (await db().shop.findFirstOrThrow()).id, productGid: "gid://shopify/Product/101", itemId: model.id } });
    const { token } = await getJwt("shop-a", API_KEY, API_SECRET);
    const pages: Array<[string, string[]]> = [
      ["/app", ["Plan and usage", "Free", "Product links: 1 of 3"]],
      ["/app/products", ["Oak chair", `3D: ${model.name}`, "Brass lamp"]],
      ["/app/products/101", ["Whole product (every variant without its own model)", "Walnut", "Detach", "Attach a model"]],
      ["/app/bulk", ["handle,model_id,variant_id", model.id]],
      ["/app/plans", ["Starter", "$29 / month", "500 product links"]],
    ];
    for (const [pathName, texts] of pages) {
      const url = new URL(`${server.url}${pathName}`);
      url.searchParams.set("embedded", "1");
      url.searchParams.set("shop", domain("shop-a"));
      url.searchParams.set("host", Buffer.from("admin.shopify.com/store/shop-a").toString("base64"));
      url.searchParams.set("id_token", token);
      const response = await fetch(url, { headers: { "User-Agent": DESKTOP_UA } });
      const html = (await response.text()).replace(/<!-- -->/g, ""); // React's markers between text parts
      expect(response.status, pathName).toBe(200);
      expect(response.headers.get("Content-Security-Policy"), pathName).toContain("https://shop-a.myshopify.com");
      for (const text of texts) expect(html, `${pathName} shows ${text}`).toContain(text.replace(/&/g, "&amp;"));
    }
  });
});

// ── Connecting a store to an account ────────────────────────────────────────────────────────────────
async function signedInCookie(userId: string) {
  const session = await sessionStorage().getSession();
  session.set("userId", userId);
  return (await sessionStorage().commitSession(session)).split(";")[0];
}

function confirm(token: string, shop: string, cookie: string) {
  return run(
    connectPage.action(
      args(
        new Request(`${APP_URL}/auth/connect/shopify?token=${encodeURIComponent(token)}`, {
          method: "POST",
          headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ token, shop }),
        }),
      ),
    ),
  );
}

describe("connecting a store to a Scanroom account", () => {
  it("the admin issues a link; the merchant signs in on the site and confirms; the store is connected once", async () => {
    await installShop("shop-a", { connected: false });
    const homeData = await run(home.loader(args(await adminRequest("shop-a", "/app"))));
    expect(homeData.body).toMatchObject({ connected: false, account: null });
    const link = new URL(homeData.body.connectUrl);
    expect(`${link.origin}${link.pathname}`).toBe(`${APP_URL}/auth/connect/shopify`);
    const token = link.searchParams.get("token")!;

    // Signed out: the page names the store and sends the merchant to sign in, with the way back.
    const signedOut = await run(connectPage.loader(args(new Request(link))));
    expect(signedOut.body).toMatchObject({ state: "ready", shopDomain: domain("shop-a"), user: null });
    expect(signedOut.body.signInUrl).toBe(`/auth?redirect=${encodeURIComponent(link.pathname + link.search)}`);

    const merchant = await createUser();
    const cookie = await signedInCookie(merchant.id);
    const signedIn = await run(connectPage.loader(args(new Request(link, { headers: { Cookie: cookie } }))));
    expect(signedIn.body).toMatchObject({ state: "ready", user: { label: merchant.email }, alreadyYours: false });

    const done = await confirm(token, domain("shop-a"), cookie);
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe(`/shopify/dashboard?connected=${encodeURIComponent(domain("shop-a"))}`);
    expect((await db().shop.findUniqueOrThrow({ where: { shopDomain: domain("shop-a") } })).userId).toBe(merchant.id);

    // Replayed: refused, even by the same merchant.
    const replay = await confirm(token, domain("shop-a"), cookie);
    expect(replay).toMatchObject({ status: 409, body: { error: expect.stringContaining("already used") } });

    // The site's dashboard shows the store; the admin home shows the account.
    const dashboard = await run(siteDashboard.loader(args(new Request(`${APP_URL}/shopify/dashboard`, { headers: { Cookie: cookie } }))));
    expect(dashboard.body.shops).toEqual([expect.objectContaining({ shopDomain: domain("shop-a"), installed: true, links: [] })]);
    expect(dashboard.body.account.plan.type).toBe("free");
    const afterHome = await run(home.loader(args(await adminRequest("shop-a", "/app"))));
    expect(afterHome.body).toMatchObject({ connected: true, account: { label: merchant.email, usage: { linksUsed: 0, linkQuota: 3 } } });
    const signedOutDashboard = await run(siteDashboard.loader(args(new Request(`${APP_URL}/shopify/dashboard`))));
    expect(signedOutDashboard.body).toEqual({ user: null, signInUrl: "/auth?redirect=%2Fshopify%2Fdashboard" });
  });

  it("refuses an expired token, a token for another store, and a forged one; a signed-out POST goes to sign-in", async () => {
    await installShop("shop-a", { connected: false });
    await installShop("shop-b", { connected: false });
    const merchant = await createUser();
    const cookie = await signedInCookie(merchant.id);

    const expired = issueConnectToken({ shopDomain: domain("shop-a"), now: Date.now() - 16 * 60 * 1000 });
    expect(await confirm(expired, domain("shop-a"), cookie)).toMatchObject({ status: 403, body: { error: expect.stringContaining("expired") } });
    const page = await run(connectPage.loader(args(new Request(`${APP_URL}/auth/connect/shopify?token=${expired}`))));
    expect(page).toMatchObject({ status: 403, body: { state: "refused" } });

    const forA = issueConnectToken({ shopDomain: domain("shop-a") });
    expect(await confirm(forA, domain("shop-b"), cookie)).toMatchObject({ status: 403, body: { error: "This connect link was issued for another store." } });

    const [payload] = forA.split(".");
    const forged = `${Buffer.from(Buffer.from(payload, "base64url").toString().replace("shop-a", "shop-b")).toString("base64url")}.${forA.split(".")[1]}`;
    expect(await confirm(forged, domain("shop-b"), cookie)).toMatchObject({ status: 403, body: { error: expect.stringContaining("not valid") } });

    const signedOut = await confirm(forA, domain("shop-a"), "");
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toMatch(/^\/auth\?redirect=/);

    expect((await db().shop.findMany({ where: { userId: { not: null } } })).length).toBe(0);
    // The refusals did not burn the valid token: it still connects shop A.
    expect((await confirm(forA, domain("shop-a"), cookie)).status).toBe(302);
  });
});

// ── Billing ─────────────────────────────────────────────────────────────────────────────────────────
describe("plans through Shopify's Billing API", () => {
  it("choosing a plan asks Shopify for the charge; once approved, the account is on that plan (idempotently)", async () => {
    const { user } = await installShop("shop-a");
    const chosen = await run(plansPage.action(args(await adminRequest("shop-a", "/app/plans", { intent: "subscribe", planType: "growth" }))));
    // A fetch from the embedded admin: App Bridge reads this header and sends the top window to Shopify.
    expect(chosen).toMatchObject({ thrown: true, status: 401 });
    expect(chosen.headers.get("X-Shopify-API-Request-Failure-Reauthorize-Url")).toMatch(/^https:\/\/shop-a\.myshopify\.com\/admin\/charges\/\d+\/confirm_recurring_application_charge$/);
    const [create] = callsOf("AppSubscriptionCreate");
    expect(create.variables).toMatchObject({
      name: "Scanroom Growth",
      test: true,
      returnUrl: `https://admin.shopify.com/store/shop-a/apps/${API_KEY}/app/plans`,
      lineItems: [{ plan: { appRecurringPricingDetails: { interval: "EVERY_30_DAYS", price: { amount: 29, currencyCode: "USD" } } } }],
    });
    expect((await db().subscription.findUnique({ where: { userId: user!.id } }))?.provider ?? "none").toBe("none");

    // The merchant approves; Shopify returns them to the plans page.
    const charge = charges[domain("shop-a")][0];
    Object.assign(charge, { status: "ACTIVE", currentPeriodEnd: new Date(Date.now() + 30 * 86400_000).toISOString() });
    const page = await run(plansPage.loader(args(await adminRequest("shop-a", "/app/plans"))));
    expect(page.body).toMatchObject({ paid: "growth", currentPlan: { type: "growth", provider: "shopify" } });
    const subscription = await db().subscription.findUniqueOrThrow({ where: { userId: user!.id }, include: { plan: true } });
    expect(subscription).toMatchObject({ provider: "shopify", externalId: charge.id, status: "active", plan: { planType: "growth" } });
    expect(subscription.currentPeriodEnd.toISOString()).toBe(charge.currentPeriodEnd);

    // Seen again (page reload, a second tab): nothing changes.
    await run(plansPage.loader(args(await adminRequest("shop-a", "/app/plans"))));
    expect((await db().subscription.findUniqueOrThrow({ where: { userId: user!.id } })).updatedAt).toEqual(subscription.updatedAt);
    const homeData = await run(home.loader(args(await adminRequest("shop-a", "/app"))));
    expect(homeData.body.account.usage.linkQuota).toBe(100);
  });

  it("a cancelled charge (webhook, twice) and an uninstall put the account back on the free plan", async () => {
    const { user } = await installShop("shop-a");
    charges[domain("shop-a")] = [{ id: "gid://shopify/AppSubscription/77", name: "Scanroom Pro", status: "ACTIVE", test: true, currentPeriodEnd: null }];
    await run(plansPage.loader(args(await adminRequest("shop-a", "/app/plans"))));
    expect((await db().subscription.findUniqueOrThrow({ where: { userId: user!.id }, include: { plan: true } })).plan.planType).toBe("pro");

    const cancelled = { app_subscription: { admin_graphql_api_id: "gid://shopify/AppSubscription/77", name: "Scanroom Pro", status: "CANCELLED" } };
    for (let i = 0; i < 2; i++) {
      const outcome = await run(subscriptionsUpdate.action(args(webhook("app_subscriptions/update", "shop-a", cancelled, { eventId: "evt-cancel" }))));
      expect(outcome.status).toBe(200);
    }
    const afterCancel = await db().subscription.findUniqueOrThrow({ where: { userId: user!.id }, include: { plan: true } });
    expect(afterCancel).toMatchObject({ provider: "none", externalId: null, plan: { planType: "free" } });
    expect(await db().webhookEvent.count({ where: { topic: "APP_SUBSCRIPTIONS_UPDATE" } })).toBe(1);

    // Active again through the webhook, then the app is uninstalled: billing stops with it.
    const active = { app_subscription: { ...cancelled.app_subscription, admin_graphql_api_id: "gid://shopify/AppSubscription/78", status: "ACTIVE" } };
    await run(subscriptionsUpdate.action(args(webhook("app_subscriptions/update", "shop-a", active))));
    expect((await db().subscription.findUniqueOrThrow({ where: { userId: user!.id }, include: { plan: true } })).plan.planType).toBe("pro");
    await run(appUninstalled.action(args(webhook("app/uninstalled", "shop-a", { id: 1, domain: domain("shop-a") }))));
    expect((await db().subscription.findUniqueOrThrow({ where: { userId: user!.id }, include: { plan: true } })).plan.planType).toBe("free");
  });
});

// ── Webhooks ────────────────────────────────────────────────────────────────────────────────────────
let delivery = 0;
function webhook(topic: string, name: string, payload: unknown, { secret = API_SECRET, eventId }: { secret?: string; eventId?: string } = {}) {
  delivery += 1;
  const body = JSON.stringify(payload);
  return new Request(`${APP_URL}/webhooks/${topic}`, {
    method: "POST",
    body,
    headers: {
      "Content-Type": "application/json",
      "X-Shopify-Hmac-Sha256": getHmac(body, secret),
      "X-Shopify-Topic": topic,
      "X-Shopify-Shop-Domain": domain(name),
      "X-Shopify-API-Version": apiVersion,
      "X-Shopify-Webhook-Id": `webhook-${delivery}`,
      "X-Shopify-Event-Id": eventId ?? `event-${delivery}`,
      "X-Shopify-Triggered-At": new Date().toISOString(),
    },
  });
}

describe("webhooks", () => {
  it("products/delete removes that product's links in that store only; the same event twice has one effect", async () => {
    const a = await installShop("shop-a");
    const b = await installShop("shop-b");
    const model = await createModel(a.user!.id);
    const bModel = await createModel(b.user!.id);
    await db().productModelLink.createMany({
      data: [
        { shopId: a.shop.id, productGid: "gid://shopify/Product/8123456789012345", itemId: model.id },
        { shopId: a.shop.id, productGid: "gid://shopify/Product/8123456789012345", variantGid: "gid://shopify/ProductVariant/5", itemId: model.id },
        { shopId: a.shop.id, productGid: "gid://shopify/Product/102", itemId: model.id },
        { shopId: b.shop.id, productGid: "gid://shopify/Product/8123456789012345", itemId: bModel.id },
      ],
    });
    // An id above 2^53, as a raw body: read exactly, not rounded by JSON.parse.
    const body = '{"id":8123456789012345}';
    for (let i = 0; i < 2; i++) {
      const request = webhook("products/delete", "shop-a", {}, { eventId: "evt-delete" });
      const signed = new Request(request.url, { method: "POST", body, headers: { ...Object.fromEntries(request.headers), "x-shopify-hmac-sha256": getHmac(body, API_SECRET) } });
      expect((await run(productsDelete.action(args(signed)))).status).toBe(200);
    }
    expect((await linksOf("shop-a")).map((l) => l.productGid)).toEqual(["gid://shopify/Product/102"]);
    expect(await linksOf("shop-b")).toHaveLength(1);
    expect(await db().webhookEvent.count({ where: { topic: "PRODUCTS_DELETE" } })).toBe(1);
  });

  it("answers 401 to a bad HMAC and changes nothing", async () => {
    const a = await installShop("shop-a");
    const model = await createModel(a.user!.id);
    await db().productModelLink.create({ data: { shopId: a.shop.id, productGid: "gid://shopify/Product/101", itemId: model.id } });
    const forged = [
      () => productsDelete.action(args(webhook("products/delete", "shop-a", { id: 101 }, { secret: "forged" }))),
      () =>
        subscriptionsUpdate.action(
          args(webhook("app_subscriptions/update", "shop-a", { app_subscription: { admin_graphql_api_id: "gid://shopify/AppSubscription/1", name: "Scanroom Pro", status: "ACTIVE" } }, { secret: "forged" })),
        ),
    ];
    for (const deliver of forged) expect(await run(deliver())).toMatchObject({ thrown: true, status: 401 });
    expect(await linksOf("shop-a")).toHaveLength(1);
    expect(await db().webhookEvent.count()).toBe(0);
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
