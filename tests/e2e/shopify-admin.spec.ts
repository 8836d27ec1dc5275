import { RequestType, getJwt, setUpValidRequest } from "@shopify/shopify-api/test-helpers";
import { PNG } from "pngjs";
import { buildModelMetafield } from "../../app/lib/shopify-model-metafield";
import { databaseUrl } from "../setup/config";
import { expect, test } from "./fixtures";
import { SHOPIFY_TEST_APP, startFakeAdminApi, type FakeProduct } from "./shopify-fake-admin";
import { BASE_URL, createCreator, uploadModel } from "./site-seed";

// The embedded Shopify admin (issue 7) in Chromium, as the Shopify admin's frame loads it: the document with
// `?embedded=1&shop=&host=&id_token=`, App Bridge's script (served here: the real one is on Shopify's CDN), Polaris
// pages that fetch their data with the session token App Bridge adds. The store is installed (offline session
// seeded) and connected to a Scanroom account with a ready model; the Admin API is the fake in
// shopify-fake-admin.ts, which the e2e server reaches through SHOPIFY_TEST_ADMIN_ORIGIN.

const STORE = "scanroom-e2e";
const SHOP = `${STORE}.myshopify.com`;
const ACCESS_TOKEN = "shpat_e2e_offline_token";
const APP_BRIDGE_URL = "https://cdn.shopify.com/shopifycloud/app-bridge.js";
const DESKTOP_UA =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const CHAIR: FakeProduct = {
  id: 7001,
  title: "Oak chair",
  handle: "oak-chair",
  imageUrl: "https://cdn.shopify.com/s/files/1/0001/oak-chair.png",
  variants: [
    { id: 70011, title: "Oak" },
    { id: 70012, title: "Walnut" },
  ],
};
const LAMP: FakeProduct = { id: 7002, title: "Brass lamp", handle: "brass-lamp", imageUrl: null, variants: [{ id: 70021, title: "Default Title" }] };

// Shopify's "HeadlessChrome" user agent is a bot to the library (410); a merchant's browser is not.
test.use({ userAgent: DESKTOP_UA });

/**
 * A stand-in for App Bridge with what these pages use of it: `shopify.config` (the API key from its script tag)
 * and `shopify.idToken()`; and, as the real script does, the session token added to the page's own fetches and
 * `<ui-nav-menu>` kept out of the page (App Bridge shows it in the admin's sidebar).
 */
function appBridgeStandIn(sessionToken: string) {
  return `(function () {
  var script = document.currentScript;
  var sheet = new CSSStyleSheet();
  sheet.replaceSync("ui-nav-menu { display: none; }");
  document.adoptedStyleSheets = document.adoptedStyleSheets.concat([sheet]);
  var idToken = function () { return Promise.resolve(${JSON.stringify(sessionToken)}); };
  window.shopify = { config: { apiKey: script.getAttribute("data-api-key"), shop: ${JSON.stringify(SHOP)}, locale: "en" }, idToken: idToken };
  var appFetch = window.fetch.bind(window);
  window.fetch = function (input, init) {
    var request = new Request(input, init);
    if (new URL(request.url).origin !== location.origin) return appFetch(request);
    return idToken().then(function (token) {
      var headers = new Headers(request.headers);
      headers.set("Authorization", "Bearer " + token);
      return appFetch(new Request(request, { headers: headers }));
    });
  };
})();`;
}

/** The e2e server's database (tests/e2e/server.ts), for what only Shopify's install creates. */
async function e2eDb() {
  process.env.DATABASE_URL = databaseUrl(`scanroom_e2e_${new URL(BASE_URL).port}`);
  process.env.LOG_LEVEL = "error";
  return import("~/db.server");
}

/** The store as Shopify's install leaves it (offline session), connected to the account `userId`. */
async function installShop(userId: string) {
  const { db } = await e2eDb();
  await db().shopifySession.create({
    data: { id: `offline_${SHOP}`, shop: SHOP, state: "", isOnline: false, scope: "read_products,write_products", accessToken: ACCESS_TOKEN },
  });
  return db().shop.create({ data: { shopDomain: SHOP, userId } });
}

let fakeAdmin: Awaited<ReturnType<typeof startFakeAdminApi>> | undefined;
test.afterAll(async () => {
  await fakeAdmin?.close();
  const { disconnectDb } = await e2eDb();
  await disconnectDb();
});

test("the embedded dashboard renders, and attaching a model to a product writes the metafield and the link", async ({ page, consoleErrors }) => {
  const creator = await createCreator("Oak & Co");
  const model = { id: await uploadModel(creator, { name: "Oak chair 3D" }), name: "Oak chair 3D" };
  const shop = await installShop(creator.userId);
  const { db } = await e2eDb();
  const account = await db().user.findUniqueOrThrow({ where: { id: creator.userId } });
  // The model's automatic thumbnail is rendered by now, so the metafield written below carries it as the poster.
  const thumbnailKeyOf = async () => (await db().item.findUniqueOrThrow({ where: { id: model.id }, select: { thumbnailKey: true } })).thumbnailKey;
  await expect.poll(thumbnailKeyOf, { timeout: 120_000 }).toEqual(expect.any(String));
  const thumbnailKey = await thumbnailKeyOf();
  fakeAdmin = await startFakeAdminApi({ shop: SHOP, accessToken: ACCESS_TOKEN, products: [LAMP, CHAIR] });

  const { token } = await getJwt(STORE, SHOPIFY_TEST_APP.apiKey, SHOPIFY_TEST_APP.apiSecret);
  await page.route(APP_BRIDGE_URL, (route) => route.fulfill({ contentType: "text/javascript", body: appBridgeStandIn(token) }));
  const productImage = new PNG({ width: 40, height: 40 });
  productImage.data.fill(0x9a);
  await page.route(CHAIR.imageUrl!, (route) => route.fulfill({ contentType: "image/png", body: PNG.sync.write(productImage) }));

  // The admin's frame URL: embedded=1, shop, host and a session token for this store (Shopify's test helpers).
  const adminFrame = await setUpValidRequest(
    { type: RequestType.Admin, store: STORE, apiKey: SHOPIFY_TEST_APP.apiKey, apiSecretKey: SHOPIFY_TEST_APP.apiSecret },
    new Request(`${BASE_URL}/app`),
  );
  await page.goto(adminFrame.url);
  await expect(page.getByRole("heading", { level: 1, name: "Scanroom" })).toBeVisible();
  await expect(page.getByRole("heading", { name: SHOP })).toBeVisible();
  await expect(page.getByText("Connected", { exact: true })).toBeVisible();
  await expect(page.getByText(`Scanroom account: ${account.email}`)).toBeVisible();
  await expect(page.getByText("Product ↔ model links in this store: 0")).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { shopify: { config: { apiKey: string } } }).shopify.config.apiKey)).toBe(
    SHOPIFY_TEST_APP.apiKey,
  );

  // Client-side navigation: the loaders run on fetches that carry the session token, not the URL's.
  await page.getByRole("link", { name: "Products", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Products" })).toBeVisible();
  await expect(page.getByText("brass-lamp · 1 variant")).toBeVisible();
  await expect(page.getByText("oak-chair · 2 variants")).toBeVisible();
  await page.getByRole("heading", { level: 3, name: "Oak chair" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Oak chair" })).toBeVisible();
  for (const row of ["Whole product (every variant without its own model)", "Oak", "Walnut"]) {
    await expect(page.getByRole("heading", { level: 2, name: row, exact: true })).toBeVisible();
  }

  // Attach the model to the whole product.
  const wholeProduct = page.locator("form", { has: page.getByRole("combobox", { name: "Attach a model" }) }).first();
  await wholeProduct.getByRole("combobox").selectOption({ label: model.name });
  // A mesh: "also add to the product's media" is offered, and on.
  await expect(wholeProduct.getByRole("checkbox", { name: "Also add to the product's media" })).toBeChecked();
  await wholeProduct.getByRole("button", { name: "Attach" }).click();
  await expect(page.getByText("Model attached")).toBeVisible();
  await expect(page.getByTestId("product-media-state")).toContainText("Being added to the product's media");
  await expect(page.getByRole("combobox", { name: "Replace with" })).toHaveCount(1);
  await expect(page.getByRole("combobox", { name: "Attach a model" })).toHaveCount(2);
  await page.getByRole("button", { name: "Preview" }).click();
  const preview = page.getByTitle(`3D preview: ${model.name}`);
  await expect(preview).toHaveAttribute("src", `${BASE_URL}/embed/${model.id}`);
  await expect(page.frameLocator("iframe").getByRole("heading", { level: 1 })).toHaveText(model.name);

  // The metafield the theme block reads was written for this product, with this store's token (the fake
  // answers no other), and the link is in our database.
  const writes = fakeAdmin.calls.filter((call) => call.operation === "ScanroomSetModel");
  expect(writes.length).toBeGreaterThanOrEqual(1); // the attach's; the product's re-sync job writes the same again
  const [metafield] = writes[0].variables.metafields;
  expect(metafield).toMatchObject({ ownerId: `gid://shopify/Product/${CHAIR.id}`, namespace: "$app:scanroom", key: "model", type: "json" });
  expect(JSON.parse(metafield.value)).toEqual(buildModelMetafield([{ variantGid: "", item: { ...model, thumbnailKey } }], BASE_URL));
  const links = await db().productModelLink.findMany({ where: { shopId: shop.id }, select: { productGid: true, variantGid: true, itemId: true } });
  expect(links).toEqual([{ productGid: `gid://shopify/Product/${CHAIR.id}`, variantGid: "", itemId: model.id }]);

  // The product's own media: the product's re-sync job uploads the Shopify-ready GLB and adds it; once Shopify
  // has processed it, the products list and the product page say so (each visit runs the loaders again).
  const productsLink = page.getByRole("link", { name: "Products", exact: true });
  try {
    await expect
      .poll(
        async () => {
          await productsLink.first().click();
          await expect(page.getByText(`3D: ${model.name}`)).toBeVisible();
          return page.getByText("In the product's media").count();
        },
        { timeout: 120_000, intervals: [2_000] },
      )
      .toBe(1);
  } catch (error) {
    // Say where the media push stopped: our row, the re-sync jobs, and what the store was asked.
    const media = await db().productMedia.findMany({ where: { shopId: shop.id } });
    const jobs = await db().$queryRawUnsafe(
      "SELECT state, retry_count, created_on, started_on, completed_on, output FROM pgboss.job WHERE name = 'storefront-sync' ORDER BY created_on",
    );
    process.stdout.write(
      `[shopify-admin] media push unfinished: rows ${JSON.stringify(media)}; jobs ${JSON.stringify(jobs)}; Admin API calls ${JSON.stringify(fakeAdmin.calls.map((call) => call.operation))}\n`,
    );
    throw error;
  }
  expect(fakeAdmin.media.map((media) => ({ productId: media.productId, alt: media.alt, status: media.status, magic: media.bytes.subarray(0, 4).toString() }))).toEqual([
    { productId: `gid://shopify/Product/${CHAIR.id}`, alt: model.name, status: "READY", magic: "glTF" },
  ]);
  const operations = fakeAdmin.calls.map((call) => call.operation);
  expect(operations.filter((operation) => !operation.startsWith("ScanroomProduct") && operation !== "ScanroomSetModel").slice(0, 2)).toEqual(["ScanroomStageModel", "ScanroomAddModelMedia"]);
  // List, product, the attach (product check, metafield write), then the product page and the list again.
  expect(operations.filter((operation) => operation.startsWith("ScanroomProduct")).slice(0, 3)).toEqual(["ScanroomProducts", "ScanroomProduct", "ScanroomProduct"]);
  await page.getByRole("heading", { level: 3, name: "Oak chair" }).click();
  await expect(page.getByTestId("product-media-state")).toContainText("In the product's media");
  await expect(page.getByRole("button", { name: "Remove from the product's media" })).toBeVisible();
  expect(consoleErrors).toEqual([]);
});
