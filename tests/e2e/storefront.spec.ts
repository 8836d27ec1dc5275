import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { PNG } from "pngjs";
import { buildModelMetafield } from "../../app/lib/shopify-model-metafield";
import { EXTENSION_DIR, productPage } from "../setup/storefront";
import { expect, test } from "./fixtures";
import { BASE_URL, createCreator, uploadModel } from "./site-seed";

// The storefront (issue 7): the theme block's Liquid, rendered with a sample product into a static product page
// served from a store origin, loads nothing of the viewer until the shopper clicks the poster, then shows the
// model from /embed/{id} of the real app, and follows the variant the shopper picks.

const ASSET_PATH = "/cdn/shop/extensions/scanroom-3d/assets";

/**
 * The "store": a real HTTP server on 127.0.0.1 (another origin than the app on localhost), serving the product
 * page and the extension's assets the way Shopify's CDN would. On loopback, so Chromium's local-network rules let
 * the page reach the app as a real storefront reaches the public app.
 */
async function startStore(html: string) {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://store");
    if (url.pathname.startsWith(`${ASSET_PATH}/`)) {
      const name = path.basename(url.pathname);
      res.writeHead(200, { "Content-Type": name.endsWith(".js") ? "text/javascript" : "text/css" });
      return res.end(readFileSync(path.join(EXTENSION_DIR, "assets", name)));
    }
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

async function setThumbnail(token: string, itemId: string) {
  const call = async (method: string, pathName: string, body?: unknown) => {
    const response = await fetch(`${BASE_URL}/v1${pathName}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    expect(response.status, `${method} ${pathName}`).toBe(200);
    return (await response.json()).data;
  };
  const png = new PNG({ width: 64, height: 48 });
  png.data.fill(0xc0);
  const { path: key, url } = await call("POST", `/item/${itemId}/thumbnail`);
  expect((await fetch(url, { method: "PUT", body: new Uint8Array(PNG.sync.write(png)) })).ok).toBe(true);
  const item = await call("PUT", `/item/${itemId}/thumbnail`, { path: key });
  return { thumbnailKey: key as string, thumbnailUrl: new URL(item.thumbnail_url, BASE_URL).toString() };
}

let store: Awaited<ReturnType<typeof startStore>> | undefined;
test.afterAll(async () => {
  await store?.close();
});

test("the poster loads the viewer only on click, and the block follows the selected variant", async ({ page, consoleErrors }) => {
  const creator = await createCreator("Sample Store");
  const oak = { id: await uploadModel(creator, { name: "Oak chair 3D" }), name: "Oak chair 3D" };
  const walnut = { id: await uploadModel(creator, { name: "Walnut chair 3D", visibility: "unlisted" }), name: "Walnut chair 3D" };
  const poster = await setThumbnail(creator.token, oak.id);

  const metafield = buildModelMetafield(
    [
      { variantGid: "", item: { ...oak, thumbnailKey: poster.thumbnailKey } },
      { variantGid: "gid://shopify/ProductVariant/4402", item: { ...walnut, thumbnailKey: null } },
    ],
    BASE_URL,
  );
  const html = await productPage({
    metafield,
    variants: [
      { id: 4401, title: "Oak" },
      { id: 4402, title: "Walnut" },
    ],
    settings: { height: 420 },
    assetBase: ASSET_PATH,
  });
  store = await startStore(html);
  const embedRequests: string[] = [];
  page.on("request", (request) => {
    if (request.url().startsWith(`${BASE_URL}/embed/`)) embedRequests.push(request.url());
  });

  await page.goto(`${store.url}/products/oak-chair`);
  const block = page.locator("[data-scanroom-3d]");
  const button = block.getByRole("button", { name: /View in 3D/ });
  await expect(button).toBeVisible();
  await expect(block.locator("img")).toHaveAttribute("src", poster.thumbnailUrl);
  await expect.poll(() => block.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(64);
  // The box has its final size from the start: the poster does not move the page.
  expect((await block.boundingBox())?.height).toBe(420);
  await page.waitForLoadState("networkidle");
  expect(embedRequests).toEqual([]);
  expect(page.frames()).toHaveLength(1);

  // Another variant with its own model: the poster follows, still without loading the viewer.
  await page.getByLabel("Walnut").check();
  await expect(page).toHaveURL(/variant=4402/);
  await expect(block).toHaveAttribute("data-model", walnut.id);
  await expect(block.locator("img")).toBeHidden();
  await page.getByLabel("Oak").check();
  await expect(block).toHaveAttribute("data-model", oak.id);
  expect(embedRequests).toEqual([]);

  // The shopper asks: the viewer loads in place, at the same size.
  await button.click();
  const frame = block.locator("iframe");
  await expect(frame).toHaveAttribute("src", `${BASE_URL}/embed/${oak.id}?autorotate=1&annotations=1`);
  await expect(frame).toHaveAttribute("title", oak.name);
  const viewer = page.frameLocator("[data-scanroom-3d] iframe");
  await expect(viewer.getByRole("heading", { level: 1 })).toHaveText(oak.name);
  await expect(viewer.getByTestId("model-viewer")).toHaveAttribute("data-state", "ready", { timeout: 90_000 });
  expect((await frame.boundingBox())?.height).toBe(420);
  await expect(button).toBeHidden();

  // Changing variant switches the model in the open viewer.
  await page.getByLabel("Walnut").check();
  await expect(frame).toHaveAttribute("src", new RegExp(`/embed/${walnut.id}\\?`));
  await expect(viewer.getByRole("heading", { level: 1 })).toHaveText(walnut.name);
  await expect(viewer.getByTestId("model-viewer")).toHaveAttribute("data-state", "ready", { timeout: 90_000 });
  expect(embedRequests).toEqual([expect.stringContaining(oak.id), expect.stringContaining(walnut.id)]);
  expect(consoleErrors).toEqual([]);
});
