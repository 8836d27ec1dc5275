import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";
import { PNG } from "pngjs";
import sharp from "sharp";
import { createIdentity } from "../setup/firebase-users";
import { viewForAspect } from "~/viewer/camera-fit";
import { expect, shareOfNonBackgroundPixels, test } from "./fixtures";
import { BASE_URL, createCreator, disconnect, setUserPlan, uploadModel, type Creator } from "./site-seed";

// Embeds (issue 6): a page on another origin frames /embed/{id}, sees the model rendered, drives it through the
// postMessage API (docs/embed-api.md) and hears its events; the watermark follows the plan; a private model is
// refused inside the frame with a plain message.

const VIEWER_BACKGROUND: [number, number, number] = [0x1e, 0x1f, 0x22];
type Vec3 = [number, number, number];
interface EmbedEvent {
  channel: string;
  version: number;
  type: string;
  itemId?: string | null;
  requestId?: string;
  message?: string;
  position?: Vec3;
  target?: Vec3;
  fov?: number;
  aspect?: number;
  x?: number;
  y?: number;
  index?: number;
  title?: string;
  completed?: boolean;
}

/**
 * The "other site": a real HTTP server on 127.0.0.1 (the app is on localhost) whose page frames an embed with the
 * attributes of our embed code.
 */
async function startHost() {
  const server = createServer((req, res) => {
    const query = new URL(req.url ?? "/", "http://host").searchParams;
    const src = query.get("src") ?? "";
    const [width, height] = [Number(query.get("w")) || 640, Number(query.get("h")) || 480];
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A blog post</title></head>
<body style="margin:0">
<iframe id="model" title="3D model" src="${src.replace(/"/g, "&quot;")}" width="${width}" height="${height}" style="border:0;display:block" allow="fullscreen; xr-spatial-tracking" allowfullscreen></iframe>
<script>
  window.__events = [];
  const frame = document.getElementById("model");
  window.addEventListener("message", (event) => {
    if (event.source === frame.contentWindow && event.data && event.data.channel === "scanroom") window.__events.push(event.data);
  });
  window.send = (command) => frame.contentWindow.postMessage(Object.assign({ channel: "scanroom", version: 1 }, command), "*");
</script>
</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    pageFor: (itemId: string, query = "", frame = { width: 640, height: 480 }) =>
      `${origin}/?w=${frame.width}&h=${frame.height}&src=${encodeURIComponent(`${BASE_URL}/embed/${itemId}${query}`)}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const events = (page: Page) => page.evaluate(() => (window as unknown as { __events: EmbedEvent[] }).__events);
const send = (page: Page, command: Record<string, unknown>) =>
  page.evaluate((c) => (window as unknown as { send: (c: unknown) => void }).send(c), command);

async function waitForEvent(page: Page, match: (event: EmbedEvent) => boolean, what: string): Promise<EmbedEvent> {
  let found: EmbedEvent | undefined;
  await expect.poll(async () => (found = (await events(page)).find(match)) !== undefined, { message: `waiting for ${what}`, timeout: 90_000 }).toBe(true);
  return found!;
}

async function frameScreenshot(page: Page) {
  return PNG.sync.read(await page.locator("#model").screenshot());
}

function shareOfChangedPixels(a: PNG, b: PNG) {
  let changed = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    const d = Math.abs(a.data[i] - b.data[i]) + Math.abs(a.data[i + 1] - b.data[i + 1]) + Math.abs(a.data[i + 2] - b.data[i + 2]);
    if (d > 40) changed++;
  }
  return changed / (a.width * a.height);
}

function expectClose(actual: Vec3 | undefined, expected: Vec3) {
  expect(actual).toHaveLength(3);
  actual!.forEach((value, i) => expect(value).toBeCloseTo(expected[i], 3));
}

/** A new owner with an unlisted model, signed in through /auth and on the model's page once its viewer is ready. */
async function ownerOnModelPage(page: Page, owner: string, model: string): Promise<{ identity: Awaited<ReturnType<typeof createIdentity>>; itemId: string }> {
  const identity = await createIdentity({ name: owner });
  const me = await (await fetch(`${BASE_URL}/v1/user`, { headers: { Authorization: `Bearer ${identity.idToken}` } })).json();
  const itemId = await uploadModel({ token: identity.idToken, userId: me.data.user.id, name: owner }, { name: model, visibility: "unlisted" });
  await page.goto(`/auth?redirect=${encodeURIComponent(`/item/${itemId}`)}`);
  await page.locator("#signin-email").fill(identity.email);
  await page.locator("#signin-password").fill("correct-horse-battery");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(`**/item/${itemId}`);
  await expect(page.getByTestId("model-viewer")).toHaveAttribute("data-state", "ready", { timeout: 90_000 });
  return { identity, itemId };
}

let host: Awaited<ReturnType<typeof startHost>>;
let creator: Creator;

test.beforeAll(async () => {
  host = await startHost();
  creator = await createCreator("Embed Author");
});

test.afterAll(async () => {
  await host?.close();
  await disconnect();
});

test("a page on another origin frames the model, hears ready, drives the camera and plays a tour", async ({ page, consoleErrors }) => {
  const itemId = await uploadModel(creator, { name: "Specular spheres" });
  await page.goto(host.pageFor(itemId));
  const frame = page.frameLocator("#model");
  const ready = await waitForEvent(page, (e) => e.type === "ready", "ready");
  expect(ready).toMatchObject({ channel: "scanroom", version: 1, itemId, format: "glb" });
  await expect(frame.getByTestId("model-viewer")).toHaveAttribute("data-state", "ready");
  await expect(frame.getByTestId("embed-watermark")).toHaveText(/Made with Scanroom/);
  await page.waitForTimeout(1000); // a few frames after ready, so the first image has settled
  expect(await shareOfNonBackgroundPixels(page, "#model", VIEWER_BACKGROUND)).toBeGreaterThan(0.02);

  // The camera: read it, move it three times further out, and see both the answer and the pixels change.
  await send(page, { type: "getCamera", requestId: "before" });
  const before = await waitForEvent(page, (e) => e.type === "camera" && e.requestId === "before", "camera before");
  const target = before.target!;
  const offset = before.position!.map((v, i) => v - target[i]) as Vec3;
  const further = target.map((v, i) => v + offset[i] * 3) as Vec3;
  const imageBefore = await frameScreenshot(page);
  await send(page, { type: "setCamera", position: further, target, requestId: "move" });
  const moved = await waitForEvent(page, (e) => e.type === "camera" && e.requestId === "move", "camera after setCamera");
  expectClose(moved.position, further);
  await page.waitForTimeout(1000);
  expect(shareOfChangedPixels(imageBefore, await frameScreenshot(page))).toBeGreaterThan(0.01);

  // A malformed command is answered, not obeyed.
  await send(page, { type: "setCamera", position: [1, 2], target });
  const refused = await waitForEvent(page, (e) => e.type === "error" && !!e.message?.includes("setCamera"), "error for a bad command");
  expect(refused.message).toContain("position");

  // A click (not a drag) is reported where it happened.
  await page.locator("#model").click({ position: { x: 320, y: 240 } });
  const click = await waitForEvent(page, (e) => e.type === "click", "click");
  expect(click.x).toBeCloseTo(0.5, 1);
  expect(click.y).toBeCloseTo(0.5, 1);

  // A tour through an annotation with a saved view ends at that view.
  const side: Vec3 = [target[0] + offset[2], target[1] + offset[1], target[2] - offset[0]];
  const annotation = await fetch(`${BASE_URL}/v1/item/${itemId}/annotations`, {
    method: "POST",
    headers: { Authorization: `Bearer ${creator.token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ title: "From the side", position: target, camera: { position: side, target } }),
  });
  expect(annotation.status).toBe(200);
  await page.reload();
  await waitForEvent(page, (e) => e.type === "ready", "ready after reload");
  // A long step: the caption shows and the camera flies to the stop's view until the host stops the tour.
  await send(page, { type: "playTour", stepMs: 60_000 });
  const step = await waitForEvent(page, (e) => e.type === "tourStep", "tourStep");
  expect(step).toMatchObject({ index: 0, title: "From the side" });
  await expect(frame.getByTestId("embed-tour-caption")).toHaveText("From the side");
  let asked = 0;
  await expect
    .poll(async () => {
      const requestId = `tour-${++asked}`;
      await send(page, { type: "getCamera", requestId });
      const camera = await waitForEvent(page, (e) => e.type === "camera" && e.requestId === requestId, "camera during the tour");
      return Math.max(...camera.position!.map((v, i) => Math.abs(v - side[i])));
    })
    .toBeLessThan(1e-3);
  await send(page, { type: "stopTour" });
  expect(await waitForEvent(page, (e) => e.type === "tourEnd", "tourEnd")).toMatchObject({ completed: false });
  await expect(frame.getByTestId("embed-tour-caption")).toHaveCount(0);
  // A short one runs to its end.
  await send(page, { type: "playTour", stepMs: 500 });
  expect(await waitForEvent(page, (e) => e.type === "tourEnd" && e.completed === true, "a completed tour")).toMatchObject({ itemId });
  expect(consoleErrors).toEqual([]);
});

test("the watermark goes when a plan that allows it turns it off", async ({ page, consoleErrors }) => {
  const owner = await createCreator("Growth Author");
  const itemId = await uploadModel(owner, { name: "Clean embed" });
  await setUserPlan(owner.userId, "growth");
  const off = await fetch(`${BASE_URL}/v1/item/${itemId}/embed/watermark`, {
    method: "PATCH",
    headers: { Authorization: `Bearer ${owner.token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ is_watermark_enabled: false }),
  });
  expect(off.status).toBe(200);
  await page.goto(host.pageFor(itemId, "?background=%23ffffff"));
  const frame = page.frameLocator("#model");
  await waitForEvent(page, (e) => e.type === "ready", "ready");
  await expect(frame.getByTestId("model-viewer")).toHaveAttribute("data-state", "ready");
  await expect(frame.getByTestId("embed-watermark")).toHaveCount(0);
  await page.waitForTimeout(1000);
  expect(await shareOfNonBackgroundPixels(page, "#model", [255, 255, 255])).toBeGreaterThan(0.02);
  expect(consoleErrors).toEqual([]);
});

test("a private model is refused inside the frame, and the load command shows another model", async ({ page, consoleErrors }) => {
  const hidden = await uploadModel(creator, { name: "Not for you", visibility: "private" });
  const shown = await uploadModel(creator, { name: "For everyone", visibility: "unlisted" });
  await page.goto(host.pageFor(hidden));
  const frame = page.frameLocator("#model");
  await expect(frame.getByText("This model is private or no longer available.")).toBeVisible();
  await expect(frame.getByText("Not for you")).toHaveCount(0);
  const error = await waitForEvent(page, (e) => e.type === "error", "error");
  expect(error).toMatchObject({ itemId: null, message: "This model is private or no longer available." });

  await send(page, { type: "load", itemId: shown });
  expect(await waitForEvent(page, (e) => e.type === "ready", "ready")).toMatchObject({ itemId: shown });
  await expect(frame.getByRole("heading", { level: 1 })).toHaveText("For everyone");
  // The browser logs the refused frame's 404; nothing else may be logged.
  expect(consoleErrors.filter((e) => !e.includes("404"))).toEqual([]);
  consoleErrors.splice(0, consoleErrors.length);
});

test("the owner shares and embeds from the model page: links, embed code, registered embeds, viewer settings", async ({ page, consoleErrors }) => {
  const { identity, itemId } = await ownerOnModelPage(page, "Dialog Owner", "Shared chair");

  await page.getByRole("button", { name: "Share / Embed" }).click();
  const dialog = page.getByRole("dialog", { name: "Share / Embed" });
  await expect(dialog.getByTestId("share-page-link")).toHaveValue(`${BASE_URL}/item/${itemId}`);
  await expect(dialog.getByTestId("link-credits")).toHaveText("3/3");
  await dialog.getByLabel("Label for the new link (optional)").fill("Newsletter");
  await dialog.getByRole("button", { name: "Create link" }).click();
  await expect(dialog.getByTestId("share-links").getByLabel("Newsletter", { exact: true })).toHaveValue(new RegExp(`^${BASE_URL}/s/[A-Za-z0-9]{10}$`));
  await expect(dialog.getByTestId("link-credits")).toHaveText("2/3");

  await dialog.getByRole("tab", { name: "Embed" }).click();
  await dialog.getByText("Rotate slowly", { exact: true }).click();
  await expect(dialog.getByTestId("dialog-embed-code")).toHaveValue(new RegExp(`src="${BASE_URL}/embed/${itemId}\\?autorotate=1"`));
  // Responsive code: as wide as the column it is put in, 4:3 (a 900 px column gives 900 × 675).
  await dialog.getByText("Responsive: as wide as the page allows (4:3) instead of 640 × 480").click();
  const responsiveCode = await dialog.getByTestId("dialog-embed-code").inputValue();
  expect(responsiveCode).toMatch(/^<div style="position:relative;width:100%;aspect-ratio:640\/480"><iframe /);
  const host = await page.context().newPage();
  await host.setContent(`<div style="width:900px">${responsiveCode}</div>`);
  expect(await host.locator("iframe").boundingBox()).toMatchObject({ width: 900, height: 675 });
  await host.close();
  await expect(dialog.getByRole("switch")).toBeDisabled(); // the free plan keeps the watermark
  await expect(dialog.getByText("Removing the watermark needs the Growth or Pro plan.")).toBeVisible();
  await dialog.getByLabel("Where you will embed it (optional)").fill("Shop homepage");
  await dialog.getByRole("button", { name: "Register embed" }).click();
  await expect(dialog.getByTestId("registered-embeds").getByLabel("Shop homepage", { exact: true })).toHaveValue(new RegExp(`/embed/${itemId}\\?embed_id=`));
  await expect(dialog.getByTestId("embed-credits")).toHaveText("0/1");
  await expect(dialog.getByRole("button", { name: "Register embed" })).toBeDisabled();

  await dialog.getByRole("tab", { name: "Viewer" }).click();
  await expect(dialog.getByTestId("viewer-camera-state")).toHaveText("Opens framed automatically");
  await dialog.getByRole("button", { name: "Use the current view" }).click();
  await expect(dialog.getByTestId("viewer-camera-state")).toHaveText("Opens at the view you saved");
  await dialog.getByText("Rotate slowly until the visitor moves the model").click();
  await dialog.getByLabel("Units for measurements").selectOption("cm");
  await dialog.getByRole("button", { name: "Save viewer settings" }).click();
  await expect(page.getByText("The model opens this way from now on.")).toBeVisible();
  const saved = (await (await fetch(`${BASE_URL}/v1/item/${itemId}/viewer`)).json()).data.settings;
  expect(saved).toMatchObject({ autorotate: true, units: "cm", camera: { position: expect.any(Array), target: expect.any(Array) } });

  // Any model's thumbnail can be the view on screen, in place of the one rendered for it automatically.
  const owner = { headers: { Authorization: `Bearer ${identity.idToken}` } };
  const currentThumbnail = async (): Promise<string | null> => (await (await fetch(`${BASE_URL}/v1/item/${itemId}`, owner)).json()).data.thumbnail_url;
  await expect.poll(currentThumbnail, { timeout: 120_000 }).toEqual(expect.any(String));
  const automatic = await currentThumbnail();
  expect((await fetch(`${BASE_URL}${automatic}`, owner)).headers.get("content-type")).toMatch(/image\/webp/);
  await dialog.getByRole("button", { name: "Use this view as the thumbnail" }).click();
  await expect(page.getByText("The thumbnail now shows this view.")).toBeVisible();
  const thumbnailUrl = await currentThumbnail();
  expect(thumbnailUrl).toEqual(expect.any(String));
  expect(thumbnailUrl).not.toBe(automatic);
  const thumbnail = await fetch(`${BASE_URL}${thumbnailUrl}`, owner);
  expect(thumbnail.headers.get("content-type")).toMatch(/image\/jpeg/);
  // A picture of the model, not an empty canvas: its pixels vary.
  const { channels } = await sharp(Buffer.from(await thumbnail.arrayBuffer())).stats();
  expect(Math.max(...channels.map((c) => c.stdev))).toBeGreaterThan(5);
  expect(consoleErrors).toEqual([]);
});

test("viewer settings: the owner's field of view and rotation speed reach embeds; a phone-shaped frame widens the saved view", async ({ page, consoleErrors }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const { identity, itemId } = await ownerOnModelPage(page, "Settings Owner", "Wide facade");

  await page.getByRole("button", { name: "Share / Embed" }).click();
  const dialog = page.getByRole("dialog", { name: "Share / Embed" });
  await dialog.getByRole("tab", { name: "Viewer" }).click();
  await expect(dialog.getByTestId("viewer-fov-note")).toHaveText("Default: 45°");
  await expect(dialog.getByLabel("Rotation speed")).toBeDisabled(); // until it rotates at all
  await dialog.getByText("Rotate slowly until the visitor moves the model").click();
  await dialog.getByLabel("Rotation speed").selectOption({ label: "Fast" });
  await dialog.getByLabel("Field of view").fill("60");
  await expect(dialog.getByTestId("viewer-fov-note")).toHaveText("60° (wider shows more around the model)");
  await dialog.getByRole("button", { name: "Use the current view" }).click();
  await dialog.getByRole("button", { name: "Save viewer settings" }).click();
  await expect(page.getByText("The model opens this way from now on.")).toBeVisible();
  const saved = (await (await fetch(`${BASE_URL}/v1/item/${itemId}/viewer`)).json()).data.settings;
  expect(saved).toMatchObject({ autorotate: true, autorotate_speed: 2, fov: 60 });
  // The view remembers the shape of the frame it was composed in: the model page's wide viewer.
  expect(saved.camera.aspect).toBeGreaterThan(1.2);

  // A close-up of the model (the saved view, three times nearer: narrower than the model itself), embedded in a
  // phone-shaped frame (360 × 640) and a 4:3 one, opens widened to keep what was seen side to side, at the owner's
  // field of view: as viewForAspect says, not cut.
  const closeUp = {
    ...saved.camera,
    position: saved.camera.position.map((p: number, i: number) => saved.camera.target[i] + (p - saved.camera.target[i]) * 0.3),
  };
  const patched = await fetch(`${BASE_URL}/v1/item/${itemId}/settings`, {
    method: "PATCH",
    headers: { Authorization: `Bearer ${identity.idToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ camera: closeUp }),
  });
  expect(patched.status).toBe(200);
  const openedIn = async (frame: { width: number; height: number }) => {
    await page.goto(host.pageFor(itemId, "", frame));
    await waitForEvent(page, (e) => e.type === "ready", "ready");
    await send(page, { type: "getCamera", requestId: "opening" });
    return waitForEvent(page, (e) => e.type === "camera" && e.requestId === "opening", "opening camera");
  };
  const composed = { ...closeUp, fov: 60 };
  const distance = (v: { position?: Vec3; target?: Vec3 }) => Math.hypot(...v.position!.map((p, i) => p - v.target![i]));
  for (const frame of [{ width: 360, height: 640 }, { width: 640, height: 480 }]) {
    const opened = await openedIn(frame);
    const expected = viewForAspect(composed, frame.width / frame.height);
    process.stdout.write(`frame ${frame.width}×${frame.height}: fov ${opened.fov} (expected ${expected.fov!.toFixed(2)}), distance ${distance(opened).toFixed(3)} (saved ${distance(composed).toFixed(3)})\n`);
    expect(opened.fov!).toBeCloseTo(expected.fov!, 1);
    expect(distance(opened) / distance(expected)).toBeCloseTo(1, 2);
    expectClose(opened.target, composed.target);
  }
  expect(consoleErrors).toEqual([]);
});

/** The median colour of a row of pixels from x0 to x1 (a strip of the background beside the model). */
function rowColour(png: PNG, y: number, x0: number, x1: number): [number, number, number] {
  const channels: number[][] = [[], [], []];
  for (let x = x0; x < x1; x++) for (let c = 0; c < 3; c++) channels[c].push(png.data[(y * png.width + x) * 4 + c]);
  return channels.map((values) => values.sort((a, b) => a - b)[values.length >> 1]) as [number, number, number];
}

const hexRgb = (hex: string): [number, number, number] => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
const colourDistance = (a: number[], b: number[]) => Math.max(...a.map((v, i) => Math.abs(v - b[i])));
/** Per channel, of 255: the gradient texture's rows are 1/256 of the frame apart, and sRGB is filtered in linear light. */
const GRADIENT_TOLERANCE = 6;

/** The top and bottom rows (3 px in) of a strip at the left of an element's picture, 2 %–12 % of its width. */
async function edgeColours(png: PNG) {
  const [x0, x1] = [Math.round(png.width * 0.02), Math.round(png.width * 0.12)];
  return { top: rowColour(png, 3, x0, x1), bottom: rowColour(png, png.height - 4, x0, x1) };
}

const liveFov = (page: Page) =>
  page.evaluate(() => (window as unknown as { __scanroomViewers: () => { live: { view: { fov: number } }[] } }).__scanroomViewers().live.map((v) => v.view.fov));

test("viewer backgrounds: the owner previews a gradient and a wider field of view before saving, Cancel takes them back; the embed shows the saved gradient and an environment", async ({
  page,
  consoleErrors,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const { identity, itemId } = await ownerOnModelPage(page, "Backdrop Owner", "Gradient chair");
  const viewer = page.getByTestId("model-viewer");
  await page.waitForTimeout(500); // a few frames after ready
  const fovBefore = (await liveFov(page))[0];
  const before = await edgeColours(PNG.sync.read(await viewer.screenshot()));
  process.stdout.write(`model page before: top ${before.top} bottom ${before.bottom}, live fov ${fovBefore}\n`);
  expect(colourDistance(before.top, VIEWER_BACKGROUND)).toBeLessThanOrEqual(2);

  await page.getByRole("button", { name: "Share / Embed" }).click();
  const dialog = page.getByRole("dialog", { name: "Share / Embed" });
  await dialog.getByRole("tab", { name: "Viewer" }).click();
  const [top, bottom] = ["#2040c0", "#f0a020"];
  await dialog.getByLabel("Background", { exact: true }).selectOption({ label: "Gradient" });
  await dialog.getByLabel("Top colour").fill(top);
  await dialog.getByLabel("Bottom colour").fill(bottom);
  await expect(dialog.getByTestId("viewer-background-note")).toHaveText(`Gradient from ${top} at the top to ${bottom} at the bottom`);

  // Before saving, the page's viewer shows it (the dialog's mask does not dim the page on this tab).
  let preview = before;
  await expect
    .poll(async () => {
      preview = await edgeColours(PNG.sync.read(await viewer.screenshot()));
      return Math.max(colourDistance(preview.top, hexRgb(top)), colourDistance(preview.bottom, hexRgb(bottom)));
    })
    .toBeLessThanOrEqual(GRADIENT_TOLERANCE);
  process.stdout.write(`model page preview: top ${preview.top} (chosen ${hexRgb(top)}), bottom ${preview.bottom} (chosen ${hexRgb(bottom)}), tolerance ${GRADIENT_TOLERANCE}\n`);

  // Dragging the field of view slider turns the live camera at once.
  for (const fov of [70, 30]) {
    await dialog.getByLabel("Field of view").fill(String(fov));
    await expect.poll(async () => (await liveFov(page))[0]).toBe(fov);
    process.stdout.write(`slider ${fov}° -> live camera fov ${(await liveFov(page))[0]}°\n`);
  }
  // Ticking "Rotate slowly" turns the model on the page at once: the live camera moves round it.
  const livePosition = () =>
    page.evaluate(() => (window as unknown as { __scanroomViewers: () => { live: { view: { position: number[] } }[] } }).__scanroomViewers().live[0].view.position);
  const still = await livePosition();
  await dialog.getByText("Rotate slowly until the visitor moves the model").click();
  await dialog.getByLabel("Rotation speed").selectOption({ label: "Very fast" });
  await expect.poll(async () => Math.max(...(await livePosition()).map((v, i) => Math.abs(v - still[i])))).toBeGreaterThan(0.01);
  process.stdout.write(`autorotate previewed: camera from ${still.map((v) => v.toFixed(3))} to ${(await livePosition()).map((v) => v.toFixed(3))}\n`);
  expect((await (await fetch(`${BASE_URL}/v1/item/${itemId}/viewer`)).json()).data.settings).toMatchObject({ background: null, fov: null, autorotate: false }); // nothing saved yet

  // Cancel: the saved look again.
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect.poll(async () => (await liveFov(page))[0]).toBe(fovBefore);
  await expect.poll(async () => colourDistance((await edgeColours(PNG.sync.read(await viewer.screenshot()))).top, VIEWER_BACKGROUND)).toBeLessThanOrEqual(2);
  await expect(dialog.getByLabel("Background", { exact: true })).toHaveValue("default");
  process.stdout.write(`after Cancel: live fov ${(await liveFov(page))[0]}° (was ${fovBefore}°), background back to #1e1f22\n`);

  // Chosen again and saved: the embed opens with it.
  await dialog.getByLabel("Background", { exact: true }).selectOption({ label: "Gradient" });
  await dialog.getByLabel("Top colour").fill(top);
  await dialog.getByLabel("Bottom colour").fill(bottom);
  await dialog.getByRole("button", { name: "Save viewer settings" }).click();
  await expect(page.getByText("The model opens this way from now on.")).toBeVisible();
  expect((await (await fetch(`${BASE_URL}/v1/item/${itemId}/viewer`)).json()).data.settings.background).toEqual({ type: "gradient", top, bottom });
  await page.screenshot({ path: test.info().outputPath("model-page-gradient-1440.png") });

  await page.goto(host.pageFor(itemId));
  await waitForEvent(page, (e) => e.type === "ready", "ready");
  await page.waitForTimeout(500);
  let embedded = before;
  await expect
    .poll(async () => {
      embedded = await edgeColours(await frameScreenshot(page));
      return Math.max(colourDistance(embedded.top, hexRgb(top)), colourDistance(embedded.bottom, hexRgb(bottom)));
    })
    .toBeLessThanOrEqual(GRADIENT_TOLERANCE);
  process.stdout.write(`embed 640×480: top ${embedded.top}, bottom ${embedded.bottom}\n`);
  await page.locator("#model").screenshot({ path: test.info().outputPath("embed-gradient.png") });

  // An environment: a sky over a floor around the model, neither the default grey nor flat.
  const patched = await fetch(`${BASE_URL}/v1/item/${itemId}/settings`, {
    method: "PATCH",
    headers: { Authorization: `Bearer ${identity.idToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ background: { type: "environment", name: "outdoor" } }),
  });
  expect(patched.status).toBe(200);
  await page.goto(host.pageFor(itemId));
  await waitForEvent(page, (e) => e.type === "ready", "ready");
  await page.waitForTimeout(1000);
  const sky = await edgeColours(await frameScreenshot(page));
  process.stdout.write(`embed, outdoor environment: top ${sky.top}, bottom ${sky.bottom}\n`);
  await page.locator("#model").screenshot({ path: test.info().outputPath("embed-outdoor.png") });
  expect(colourDistance(sky.top, VIEWER_BACKGROUND)).toBeGreaterThan(40);
  expect(sky.top[2]).toBeGreaterThan(sky.top[0] + 30); // blue sky above
  expect(colourDistance(sky.top, sky.bottom)).toBeGreaterThan(40); // the floor below is another colour
  expect(consoleErrors).toEqual([]);
});
