// Issue 35 items 3 and 4 as a creator and a visitor meet them: the upload dialog asks for a title, description,
// category, tags and a licence (and takes changes made while the file is still uploading); the model page shows
// them; a visitor finds the model by its tag, with "Downloadable only", and sees its licence beside the download.
// Issue 35 item 2 (in part): a visitor shares a model on X, Facebook, Reddit or by e-mail, or scans its QR code.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import jsQR from "jsqr";
import { PNG } from "pngjs";
import { SHARED_DATA } from "../setup/shared-data";
import { expect, registerAndSignIn, test } from "./fixtures";
import { BASE_URL, createCreator, disconnect, uploadModel } from "./site-seed";

test.afterAll(async () => {
  await disconnect();
});

const RUN = randomBytes(3).toString("hex");

test("a creator describes a model while it uploads; a visitor finds it by tag and sees its licence by the download", async ({ page, consoleErrors }) => {
  test.setTimeout(120_000);
  await registerAndSignIn(page);
  await page.getByTestId("new-model").click();
  const dialog = page.getByTestId("upload-dialog");
  await page.getByTestId("upload-input").setInputFiles(path.join(SHARED_DATA, "models/SpecularTest.glb"));

  const details = dialog.getByTestId("upload-details");
  // Left empty, the title is SPEC's default name, shown as the field's placeholder.
  await expect(details.getByLabel("Title")).toHaveAttribute("placeholder", "SpecularTest");
  await details.getByLabel("Title").fill(`Brass lamp ${RUN}`);
  await details.getByLabel("Description").fill("A desk lamp from the attic.");
  await details.getByLabel("Category").selectOption({ label: "Products" });
  await details.getByLabel("Tags").fill(`Brass, #Lamp, oak & ash`);
  await expect(details.getByTestId("tags-help")).toHaveText("Tags: “oak & ash” may hold only letters, digits, spaces and hyphens.");
  await expect(dialog.getByRole("button", { name: "Upload" })).toBeDisabled();
  await details.getByLabel("Tags").fill(`Brass, #Lamp, lamp${RUN}`);
  await expect(details.getByTestId("tags-help")).toHaveText(`#brass #lamp #lamp${RUN}`);
  await details.getByLabel("Licence").selectOption({ label: "CC BY 4.0" });
  await expect(details.getByTestId("license-summary")).toHaveText("Anyone may reuse and adapt it, also commercially, if they credit you.");

  // Hold the file's PUT until the description has been changed: what is typed while uploading is kept.
  let releasePut!: () => void;
  const putHeld = new Promise<void>((resolve) => (releasePut = resolve));
  let putSeen!: () => void;
  const putStarted = new Promise<void>((resolve) => (putSeen = resolve));
  await page.route(
    (url) => url.pathname.startsWith("/storage/"),
    async (route) => {
      if (route.request().method() !== "PUT") return route.continue();
      putSeen();
      await putHeld;
      await route.continue();
    },
  );
  await dialog.getByRole("button", { name: "Upload" }).click();
  await putStarted;
  await details.getByLabel("Description").fill("A brass desk lamp from the attic, 1950s.");
  releasePut();
  await page.waitForURL(/\/item\/[0-9a-f-]{36}$/);
  await page.unroute((url) => url.pathname.startsWith("/storage/"));
  const itemId = new URL(page.url()).pathname.split("/").pop()!;

  await expect(page.getByRole("heading", { level: 1, name: `Brass lamp ${RUN}` })).toBeVisible();
  await expect(page.locator(".item-description")).toHaveText("A brass desk lamp from the attic, 1950s.");
  const tags = page.getByRole("list", { name: "Tags" });
  await expect(tags.getByRole("link")).toHaveText(["#brass", "#lamp", `#lamp${RUN}`]);
  const panel = page.getByRole("region", { name: "Download" });
  await expect(panel.getByTestId("download-license")).toContainText("Licence: CC BY 4.0");
  await page.locator("#item-visibility").selectOption("public");
  await expect(page.getByTestId("visibility-help")).toHaveText("Anyone can find it on Explore and on your profile.");

  // A visitor, signed out, searches Explore for the tag: found; not among downloadable models until the owner allows it.
  const visitor = await page.context().browser()!.newPage();
  await visitor.goto("/");
  // Wait for the first sign-in state, as a person waits for the page to be ready (site.spec.ts checks a search
  // typed before it).
  await expect(visitor.getByTestId("boot-spinner")).toHaveCount(0);
  await visitor.getByLabel("Search models").fill(`#Lamp${RUN.toUpperCase()}`);
  await visitor.getByLabel("Search models").press("Enter");
  const card = visitor.locator(`[data-item-id="${itemId}"]`);
  await expect(card).toBeVisible();
  await visitor.getByLabel("Downloadable only").check();
  await expect(visitor).toHaveURL(/downloadable=true/);
  await expect(visitor.getByText("No public models match these filters.")).toBeVisible();

  await panel.getByTestId("allow-downloads").click();
  await expect(page.getByText("Others can now download this model.")).toBeVisible();
  // Signed-out pages may come from the shared cache for up to SHARED_PAGE_SECONDS (10 s): look again until then.
  await expect(async () => {
    await visitor.reload();
    await expect(card).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await card.getByRole("link", { name: `Brass lamp ${RUN}` }).click();
  await visitor.waitForURL(`**/item/${itemId}`);
  const visitorPanel = visitor.getByRole("region", { name: "Download" });
  const license = visitorPanel.getByTestId("download-license");
  await expect(license).toContainText("Licence: CC BY 4.0 — Anyone may reuse and adapt it, also commercially, if they credit you.");
  await expect(license.getByRole("link", { name: "CC BY 4.0" })).toHaveAttribute("href", "https://creativecommons.org/licenses/by/4.0/");
  await visitorPanel.getByRole("button", { name: "Download files" }).click();
  await expect(visitorPanel.locator('[data-testid="download-link"][data-kind="model"]')).toBeVisible();

  // The owner changes licence and tags on the Edit page; the visitor sees them on the next visit.
  await page.goto(`/item/${itemId}/edit`);
  await expect(page.getByLabel("Tags")).toHaveValue(`brass, lamp, lamp${RUN}`);
  await page.getByLabel("Tags").fill("brass, desk lamp");
  await page.getByLabel("Licence").selectOption({ label: "CC0 1.0 (public domain)" });
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Your changes were saved.")).toBeVisible();
  await expect(async () => {
    await visitor.reload();
    await expect(visitor.getByRole("list", { name: "Tags" }).getByRole("link")).toHaveText(["#brass", "#desk lamp"], { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(visitor.getByTestId("download-license")).toContainText("Licence: CC0 1.0 (public domain) — Anyone may use it for anything, without credit.");
  await visitor.close();
  expect(consoleErrors).toEqual([]);
});

test("a visitor shares a model: X, Facebook, Reddit and e-mail get its link and title, and its QR code opens it", async ({ page, consoleErrors }) => {
  const creator = await createCreator("E2E Sharer");
  const name = `Carved tree ${RUN}`;
  const itemId = await uploadModel(creator, { name, visibility: "public" });
  const link = `${BASE_URL}/item/${itemId}`;
  await page.goto(`/item/${itemId}`);
  await expect(page.getByTestId("boot-spinner")).toHaveCount(0);
  const share = page.getByTestId("share-buttons");
  const href = async (id: string) => new URL((await share.locator(`[data-share="${id}"]`).getAttribute("href"))!);
  expect((await href("x")).searchParams.get("url")).toBe(link);
  expect((await href("x")).searchParams.get("text")).toBe(name);
  expect((await href("facebook")).searchParams.get("u")).toBe(link);
  expect((await href("reddit")).searchParams.get("title")).toBe(name);
  expect(decodeURIComponent((await share.locator('[data-share="email"]').getAttribute("href"))!)).toBe(`mailto:?subject=${name}&body=${name}\n${link}`);
  await expect(share.locator('[data-share="x"]')).toHaveAttribute("target", "_blank");
  await expect(share.locator('[data-share="x"]')).toHaveAttribute("rel", "noopener noreferrer");

  await share.getByRole("button", { name: "QR code" }).click();
  const qr = share.getByTestId("share-qr");
  await expect(qr).toHaveJSProperty("complete", true);
  const png = PNG.sync.read(await qr.screenshot());
  const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  process.stdout.write(`QR code ${png.width}×${png.height} px reads: ${decoded?.data}\n`);
  expect(decoded?.data).toBe(link);
  expect(consoleErrors).toEqual([]);
});

test("the owner has a turntable made on the model page; it plays there and downloads as MP4 and GIF, and a visitor sees it too", async ({ page, consoleErrors }) => {
  test.setTimeout(180_000);
  await registerAndSignIn(page, { name: "E2E Turner" });
  await page.getByTestId("new-model").click();
  await page.getByTestId("upload-input").setInputFiles(path.join(SHARED_DATA, "models/cat.glb"));
  await page.getByTestId("upload-dialog").getByRole("button", { name: "Upload" }).click();
  await page.waitForURL(/\/item\/[0-9a-f-]{36}$/);
  const itemId = new URL(page.url()).pathname.split("/").pop()!;
  const panel = page.getByTestId("turntable-panel");
  await panel.getByRole("button", { name: "Make a turntable video" }).click();
  await expect(panel.getByTestId("turntable-status")).toHaveText("Making the turntable…");
  const video = panel.locator("video");
  await expect(video).toBeVisible({ timeout: 150_000 });
  // It plays: the browser decoded frames of it.
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
  expect(await video.evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight])).toEqual([480, 360]);
  const [gif] = await Promise.all([page.waitForEvent("download"), panel.getByTestId("turntable-gif").click()]);
  expect(gif.suggestedFilename()).toBe("cat turntable.gif");
  const gifBytes = readFileSync((await gif.path())!);
  expect(gifBytes.subarray(0, 6).toString("latin1")).toBe("GIF89a");
  const [mp4] = await Promise.all([page.waitForEvent("download"), panel.getByTestId("turntable-mp4").click()]);
  expect(mp4.suggestedFilename()).toBe("cat turntable.mp4");
  await expect(panel.getByRole("button", { name: "Make it again" })).toBeVisible();

  await page.locator("#item-visibility").selectOption("unlisted");
  await expect(page.getByTestId("visibility-help")).toHaveText("Anyone with the link can open it; it is never listed.");
  const visitor = await page.context().browser()!.newPage();
  await expect(async () => {
    await visitor.goto(`/item/${itemId}`);
    await expect(visitor.getByTestId("turntable-panel").locator("video")).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(visitor.getByTestId("turntable-panel").getByRole("button")).toHaveCount(0); // making one is the owner's
  // The link preview's picture is the turntable's first frame.
  await expect(visitor.locator('meta[property="og:image"]')).toHaveAttribute("content", new RegExp(`/v1/item/${itemId}/turntable/poster\\?v=`));
  await visitor.close();
  expect(consoleErrors).toEqual([]);
});

test("on a desktop, 'View in AR' shows a QR code that opens the model's page on a phone, where 'View in your space' places it", async ({ page, consoleErrors }) => {
  const creator = await createCreator("E2E AR Maker");
  const mesh = await uploadModel(creator, { name: `AR lamp ${RUN}`, visibility: "public" });
  await page.goto(`/item/${mesh}`);
  await expect(page.getByTestId("model-viewer")).toHaveAttribute("data-state", "ready", { timeout: 90_000 });
  const toolbar = page.getByRole("toolbar", { name: "Viewer controls" });
  await expect(toolbar.getByRole("button", { name: "View in your space" })).toHaveCount(0); // no AR in desktop Chromium
  await toolbar.getByRole("button", { name: "View in AR" }).click();
  const dialog = page.getByRole("dialog", { name: "View in AR on your phone" });
  const qr = dialog.getByRole("img", { name: "QR code of this page" });
  await expect(qr).toHaveJSProperty("complete", true);
  const png = PNG.sync.read(await qr.screenshot());
  const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  expect(decoded?.data).toBe(`${BASE_URL}/item/${mesh}`);
  await toolbar.getByRole("button", { name: "View in AR" }).click();
  await expect(dialog).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});

// A phone's own AR viewer opens the server's files (issue 35 item 1): the clicks that would leave the browser for
// Scene Viewer (an intent) or AR Quick Look (a rel="ar" link) are recorded instead of followed.
const ANDROID_UA = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
const IPHONE_UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1";

async function phone(browser: import("@playwright/test").Browser, userAgent: string, { quickLook }: { quickLook: boolean }) {
  const context = await browser.newContext({ userAgent, viewport: { width: 390, height: 844 }, hasTouch: true });
  await context.addInitScript((quickLookHere: boolean) => {
    const opened: Array<{ href: string; rel: string; target: string; image: boolean }> = [];
    (window as unknown as { arOpened: typeof opened }).arOpened = opened;
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      if (this.href.startsWith("intent:") || this.rel === "ar") {
        opened.push({ href: this.href, rel: this.rel, target: this.target, image: !!this.querySelector("img") });
        return;
      }
      click.call(this);
    };
    if (quickLookHere) {
      const supports = DOMTokenList.prototype.supports;
      DOMTokenList.prototype.supports = function (this: DOMTokenList, token: string) {
        return token === "ar" || supports.call(this, token);
      };
    }
  }, quickLook);
  return context;
}

test("on a phone, 'View in your space' opens the server's files: Scene Viewer gets the GLB on Android, Quick Look the USDZ on an iPhone", async ({ page, browser, consoleErrors }) => {
  test.setTimeout(150_000);
  const creator = await createCreator("E2E Phone AR");
  const itemId = await uploadModel(creator, { name: `Phone AR lamp ${RUN}`, visibility: "public" });
  await page.goto(`/item/${itemId}`); // the owner's page, once: the model is ready to show
  await expect(page.getByTestId("model-viewer")).toHaveAttribute("data-state", "ready", { timeout: 90_000 });

  const android = await phone(browser, ANDROID_UA, { quickLook: false });
  const visitor = await android.newPage();
  const errors: string[] = [];
  visitor.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  await visitor.goto(`/item/${itemId}`);
  await expect(visitor.getByTestId("model-viewer")).toHaveAttribute("data-state", "ready", { timeout: 90_000 });
  const toolbar = visitor.getByRole("toolbar", { name: "Viewer controls" });
  await expect(toolbar.getByRole("button", { name: "View in AR" })).toHaveCount(0); // the phone itself places it
  await toolbar.getByRole("button", { name: "View in your space" }).click();
  await expect.poll(() => visitor.evaluate(() => (window as unknown as { arOpened: unknown[] }).arOpened.length)).toBe(1);
  const [intent] = await visitor.evaluate(() => (window as unknown as { arOpened: Array<{ href: string; target: string }> }).arOpened);
  expect(intent.target).toBe("_top");
  expect(intent.href).toMatch(/^intent:\/\/arvr\.google\.com\/scene-viewer\/1\.0\?.*#Intent;scheme=https;package=com\.google\.ar\.core;action=android\.intent\.action\.VIEW;S\.browser_fallback_url=.*;end;$/);
  const query = new URLSearchParams(intent.href.slice(intent.href.indexOf("?") + 1, intent.href.indexOf("#")));
  expect(query.get("title")).toBe(`Phone AR lamp ${RUN}`);
  expect(query.get("mode")).toBe("ar_preferred");
  const glbUrl = query.get("file")!;
  expect(glbUrl).toMatch(new RegExp(`^${BASE_URL}/v1/item/${itemId}/ar/glb\\?v=[0-9a-f]{16}$`));
  // Scene Viewer fetches it as a stranger would: no cookie, no token.
  const glb = await fetch(glbUrl);
  expect(glb.headers.get("content-type")).toBe("model/gltf-binary");
  const glbBytes = Buffer.from(await glb.arrayBuffer());
  expect(glbBytes.subarray(0, 4).toString("latin1")).toBe("glTF");
  await android.close();

  const iphone = await phone(browser, IPHONE_UA, { quickLook: true });
  const iosVisitor = await iphone.newPage();
  iosVisitor.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  await iosVisitor.goto(`/item/${itemId}`);
  await expect(iosVisitor.getByTestId("model-viewer")).toHaveAttribute("data-state", "ready", { timeout: 90_000 });
  await iosVisitor.getByRole("toolbar", { name: "Viewer controls" }).getByRole("button", { name: "View in your space" }).click();
  await expect.poll(() => iosVisitor.evaluate(() => (window as unknown as { arOpened: unknown[] }).arOpened.length)).toBe(1);
  const [quickLook] = await iosVisitor.evaluate(() => (window as unknown as { arOpened: Array<{ href: string; rel: string; image: boolean }> }).arOpened);
  expect(quickLook).toMatchObject({ rel: "ar", image: true }); // Safari takes a rel="ar" link only with an image in it
  expect(quickLook.href).toMatch(new RegExp(`^${BASE_URL}/v1/item/${itemId}/ar/usdz\\?v=[0-9a-f]{16}#allowsContentScaling=0$`));
  const usdz = await fetch(quickLook.href.replace(/#.*$/, ""));
  expect(usdz.headers.get("content-type")).toBe("model/vnd.usdz+zip");
  const usdzBytes = Buffer.from(await usdz.arrayBuffer());
  // A zip whose first entry is the USD layer (Pixar's USDZ layout).
  expect(usdzBytes.readUInt32LE(0)).toBe(0x04034b50);
  expect(usdzBytes.subarray(30, 30 + usdzBytes.readUInt16LE(26)).toString("latin1")).toBe("model.usda");
  process.stdout.write(`[ar] phone AR files: GLB ${glbBytes.length} B, USDZ ${usdzBytes.length} B\n`);
  await iosVisitor.screenshot({ path: test.info().outputPath("iphone-model-page.png") });
  await iphone.close();
  expect(errors).toEqual([]);
  expect(consoleErrors).toEqual([]);
});
