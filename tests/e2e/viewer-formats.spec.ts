// The viewer in Chromium (issue 6): every sample format renders from its own bytes with a progress bar
// that moves (a plain .ply shows splats before its download ends), splats reach visitors as .sog
// delivery copies, a corrupt copy of each file gives the error message, the controls answer, and
// opening and closing 20 viewers gives every viewer's resources back.
// A GLB made as our scans' meshes are (meshopt) renders too: its buffers are decoded in workers (issue 20).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { BrowserContext, CDPSession, Page, Response as PageResponse } from "@playwright/test";
import type { DeclaredModelType } from "~/formats/model-format";
import { compressGlbForWeb } from "~/worker/web-glb.server";
import { PNG } from "pngjs";
import { psnr } from "~/worker/evaluation/image-quality";
import { createIdentity, type TestIdentity } from "../setup/firebase-users";
import { expect, shareOfNonBackgroundPixels, test } from "./fixtures";
import { SHARED_DATA } from "../setup/shared-data";
import { splatSamples } from "../setup/splat-samples";

const DATA = SHARED_DATA;
/** Screenshots worth a look (the early splats beside the viewer's frame), under the suite's scratch folder. */
const TMP = path.resolve("tests/.tmp");
mkdirSync(TMP, { recursive: true });
const BASE_URL = `http://localhost:${Number(process.env.E2E_PORT ?? 3100)}`;
const BACKGROUND: [number, number, number] = [0x1e, 0x1f, 0x22];
const EMPTY_OR_CORRUPTED = "Failed to download model: Downloaded file is empty or corrupted";

interface Sample {
  key: string;
  file: string;
  modelType: DeclaredModelType;
  /** The format the viewer decodes when it shows the original. */
  format: string;
  /** Uploaded as our scans' GLBs are made (meshopt, WebP textures): decoded in the viewer's meshopt workers. */
  webCompressed?: boolean;
}

// Splat samples before guitar.ply: by then the viewer's JS is in the browser cache, and only the
// model itself downloads under the throttled network.
const SAMPLES: Sample[] = [
  { key: "cat", file: "models/cat.glb", modelType: "glb", format: "glb" },
  { key: "cat-meshopt", file: "models/cat.glb", modelType: "glb", format: "glb", webCompressed: true },
  { key: "specular", file: "models/SpecularTest.glb", modelType: "glb", format: "glb" },
  { key: "guitar-ksplat", file: "splats/guitar.ksplat", modelType: "ksplat", format: "ksplat" },
  { key: "guitar-compressed", file: "splats/guitar.compressed.ply", modelType: "ply", format: "compressed-ply" },
  { key: "guitar-ply", file: "splats/guitar.ply", modelType: "ply", format: "ply" },
  { key: "biker-spz", file: "splats/biker.spz", modelType: "ply", format: "spz" },
];

test.describe.configure({ mode: "serial" });

let owner: TestIdentity;
let context: BrowserContext;
let page: Page;
let cdp: CDPSession;
const consoleMessages: Array<{ type: string; text: string }> = [];
const items = new Map<string, string>();
const corrupt = new Map<string, string>();

async function api(method: string, pathName: string, body?: unknown) {
  const response = await fetch(`${BASE_URL}/v1${pathName}`, {
    method,
    headers: { Authorization: `Bearer ${owner.idToken}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  if (response.status !== 200) throw new Error(`${method} ${pathName}: ${response.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** The real model-file flow of the API: create, upload link, PUT, report the size. */
async function uploadModel(name: string, modelType: Sample["modelType"], bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const { item_id: itemId } = await api("POST", "/item", { model_type: modelType, upload_type: "model", name });
  const link = await api("GET", `/upload/item/${itemId}?uploadType=model`);
  const put = await fetch(link.url, { method: "PUT", body: bytes });
  if (put.status !== 200) throw new Error(`PUT ${name}: ${put.status} ${await put.text()}`);
  await api("POST", `/item/${itemId}/file/size`, { size: bytes.length });
  return itemId;
}

async function waitForDeliveryCopy(itemId: string) {
  await expect.poll(async () => (await api("GET", `/item/${itemId}`)).delivered_format, { timeout: 150_000, intervals: [1_000] }).toBe("sog");
}

/** Slow the network down so that downloads take a few seconds (bytes per second). */
async function throttle(bytesPerSecond: number | null) {
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: bytesPerSecond ? 20 : 0,
    downloadThroughput: bytesPerSecond ?? -1,
    uploadThroughput: -1,
  });
}

/** What the viewer's progress bar and preview state went through on this page (recorded in the page). */
async function progressHistory(): Promise<Array<{ percent: number | null; preview: boolean }>> {
  return page.evaluate(() => (window as unknown as { __progress: Array<{ percent: number | null; preview: boolean }> }).__progress ?? []);
}

async function liveViewers() {
  return page.evaluate(() => {
    const hook = (window as unknown as { __scanroomViewers?: () => { created: number; disposed: number; live: Array<Record<string, unknown>> } }).__scanroomViewers;
    return hook ? hook() : null;
  });
}

async function expectRendered(label: string) {
  const viewer = page.getByTestId("model-viewer");
  await expect(viewer, label).toHaveAttribute("data-state", "ready", { timeout: 120_000 });
  await page.waitForTimeout(500); // a few frames after ready
  const share = await shareOfNonBackgroundPixels(page, '[data-testid="model-viewer"] canvas', BACKGROUND);
  expect(share, `${label}: share of the canvas showing the model`).toBeGreaterThan(0.02);
}

/** The pixel showing the model that is closest to the centre of a screenshot (CSS px at scale 1). */
function modelPixelNearCentre(png: Buffer): { x: number; y: number } {
  const image = PNG.sync.read(png);
  const cx = image.width / 2;
  const cy = image.height / 2;
  let best = { x: cx, y: cy, d: Infinity };
  for (let y = 0; y < image.height; y += 2) {
    for (let x = 0; x < image.width; x += 2) {
      const i = (y * image.width + x) * 4;
      const diff = Math.abs(image.data[i] - BACKGROUND[0]) + Math.abs(image.data[i + 1] - BACKGROUND[1]) + Math.abs(image.data[i + 2] - BACKGROUND[2]);
      const d = Math.hypot(x - cx, y - cy);
      if (diff > 60 && d < best.d) best = { x, y, d };
    }
  }
  return { x: best.x, y: best.y };
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(300_000);
  owner = await createIdentity({ name: "Viewer Tester" });
  await api("GET", "/user");
  for (const sample of SAMPLES) {
    const original = new Uint8Array(readFileSync(path.join(DATA, sample.file)));
    const bytes = sample.webCompressed ? new Uint8Array(await compressGlbForWeb(original)) : original;
    items.set(sample.key, await uploadModel(sample.key, sample.modelType, bytes));
    // A corrupt copy: the header is intact (the upload check passes), the rest is cut off.
    corrupt.set(sample.key, await uploadModel(`${sample.key} (corrupt)`, sample.modelType, bytes.slice(0, Math.floor(bytes.length * 0.6))));
  }

  context = await browser.newContext();
  page = await context.newPage();
  page.on("console", (message) => consoleMessages.push({ type: message.type(), text: message.text() }));
  page.on("pageerror", (error) => consoleMessages.push({ type: "pageerror", text: error.message }));
  // Record every state of the progress bar and the preview flag, however briefly it shows.
  await page.addInitScript(() => {
    const seen: Array<{ percent: number | null; preview: boolean }> = [];
    (window as unknown as { __progress: typeof seen }).__progress = seen;
    const record = () => {
      const root = document.querySelector('[data-testid="model-viewer"]');
      const bar = root?.querySelector('[role="progressbar"]');
      if (!bar) return;
      const value = bar.getAttribute("aria-valuenow");
      const entry = { percent: value === null ? null : Number(value), preview: root?.getAttribute("data-preview") === "true" };
      const last = seen[seen.length - 1];
      if (!last || last.percent !== entry.percent || last.preview !== entry.preview) seen.push(entry);
    };
    new MutationObserver(record).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-valuenow", "data-preview"] });
  });
  cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");

  await page.goto("/auth?redirect=%2Fdashboard");
  await page.locator("#signin-email").fill(owner.email);
  await page.locator("#signin-password").fill(owner.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL("**/dashboard");
});

test.afterAll(async () => {
  await context?.close();
});

test("each sample format renders from its own bytes, with a progress bar from the first byte", async () => {
  for (const sample of SAMPLES) {
    if (sample.key === "biker-spz") continue; // SPZ v4: only viewable as its .sog delivery copy (next test)
    const itemId = items.get(sample.key)!;
    if (sample.modelType !== "glb") await waitForDeliveryCopy(itemId); // so that ?original=1 is the original for sure
    // Every download takes a few seconds, so the bar has time to move. The .ply takes longer: its
    // first splats must be decoded and drawn (by a software rasteriser here) while the rest is on its way.
    const size = readFileSync(path.join(DATA, sample.file)).length;
    await throttle(sample.key === "guitar-ply" ? 500_000 : Math.max(50_000, Math.round(size / 2.5)));
    await page.goto(`/viewer/${itemId}${sample.modelType === "glb" ? "" : "?original=1"}`);
    await expectRendered(sample.key);
    await throttle(null);
    const viewers = await liveViewers();
    expect(viewers?.live).toHaveLength(1);
    expect(viewers?.live[0].format, sample.key).toBe(sample.format);
    const history = await progressHistory();
    expect(history[0]?.percent, `${sample.key}: the bar starts at 0`).toBe(0);
    expect(history.some((entry) => entry.percent !== null && entry.percent > 0 && entry.percent < 100), `${sample.key}: the bar moved`).toBe(true);
    if (sample.key === "guitar-ply") {
      // A plain .ply shows its first splats while the rest still downloads.
      const early = history.some((entry) => entry.preview && entry.percent !== null && entry.percent < 100);
      expect(early, `splats before the download ended: ${JSON.stringify(history)}`).toBe(true);
    }
  }
  expect(consoleMessages.filter((message) => message.type === "error" || message.type === "pageerror")).toEqual([]);
});

test("splats reach visitors as .sog delivery copies, and an SPZ v4 upload becomes viewable", async () => {
  for (const key of ["biker-spz", "guitar-ply"]) {
    const itemId = items.get(key)!;
    await waitForDeliveryCopy(itemId);
    await page.goto(`/viewer/${itemId}`);
    await expectRendered(`${key} as .sog`);
    expect((await liveViewers())?.live[0].format).toBe("sog");
    await expect(page.getByTestId("viewer-variant")).toContainText("Showing the .sog visitors get");
  }
  // The owner switches to the original.
  await page.getByTestId("viewer-variant").click();
  await page.waitForURL(/original=1/);
  await expect.poll(async () => (await liveViewers())?.live[0]?.format, { timeout: 120_000 }).toBe("ply");
  await expectRendered("guitar original");
});

test("a splat's coarse level is on screen while its .sog still downloads, then the whole model replaces it", async () => {
  const itemId = items.get("guitar-ply")!;
  await waitForDeliveryCopy(itemId);
  const item = await api("GET", `/item/${itemId}`);
  expect(item.model_coarse_url).toBe(`/v1/item/${itemId}/file?variant=coarse`);
  const requested: string[] = [];
  const sizes = new Map<string, number>();
  const onResponse = (response: PageResponse) => {
    const url = new URL(response.url());
    if (url.pathname !== `/v1/item/${itemId}/file`) return;
    requested.push(url.search);
    sizes.set(url.search, Number(response.headers()["content-length"]));
  };
  page.on("response", onResponse);
  // A first visit on a slow link: the whole .sog (about 1.2 MB) is still on its way when its coarse level (a tenth
  // of the splats) has arrived. The whole file's answer is held until the viewer shows something, at most 30 s:
  // a viewer that waited for the whole model shows nothing meanwhile and fails below. (Routing also keeps the
  // browser's cache out: an earlier test viewed this model, and a cached .sog would race its coarse level.)
  const wholeFile = new RegExp(`/v1/item/${itemId}/file$`);
  const holdWhole = async (route: import("@playwright/test").Route) => {
    await page.locator('[data-testid="model-viewer"][data-preview="true"]').waitFor({ timeout: 30_000 }).catch(() => undefined);
    await route.continue().catch(() => undefined);
  };
  await page.route(wholeFile, holdWhole);
  await page.goto(`/viewer/${itemId}`);
  await expectRendered("guitar after its coarse level");
  await page.unroute(wholeFile, holdWhole);
  page.off("response", onResponse);
  expect(requested.sort(), "the coarse level and the model, each downloaded once").toEqual(["", "?variant=coarse"]);
  const [whole, coarse] = [sizes.get("")!, sizes.get("?variant=coarse")!];
  process.stdout.write(`coarse level ${coarse} bytes, whole .sog ${whole} bytes\n`);
  expect(coarse, "the coarse level is a small part of the model's bytes").toBeLessThan(whole / 4);
  // A .sog cannot be shown in part: splats on screen while the viewer still loads are the coarse level's.
  const history = await progressHistory();
  expect(history.some((entry) => entry.preview), `splats on screen before the whole model: ${JSON.stringify(history)}`).toBe(true);
  const live = (await liveViewers())?.live ?? [];
  expect(live).toHaveLength(1);
  expect(live[0]!.format).toBe("sog");
  // What stays on show is the whole model (90,854 splats), not its coarse level (9,086): held and drawn.
  expect(live[0]!.splats).toBe(90_854);
  await expect.poll(async () => (await liveViewers())?.live[0]?.drawnSplats, { timeout: 10_000 }).toBe(90_854);
  expect(consoleMessages.filter((message) => message.type === "error" || message.type === "pageerror")).toEqual([]);
});

test("the embed draws the coarse level's early splats before three.js and Spark have arrived, where the viewer then draws the model", async () => {
  const itemId = items.get("guitar-ply")!;
  await waitForDeliveryCopy(itemId);
  // three.js (which the viewer needs) and the whole .sog are held: only the early splats can draw.
  const held = (pattern: string | RegExp) => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const handler = async (route: import("@playwright/test").Route) => {
      await gate;
      await route.continue().catch(() => undefined);
    };
    return { ready: page.route(pattern, handler), release: async () => (release(), page.unroute(pattern, handler)) };
  };
  const three = held(/\/assets\/three\.module-[^/]*\.js$/);
  const model = held(new RegExp(`/v1/item/${itemId}/file$`));
  await Promise.all([three.ready, model.ready]);
  // The shopper's page: the embed of a model anyone with the link may see (the owner's private model needs their
  // token, which the HTML cannot carry: no early download, no early splats).
  await api("PATCH", `/item/${itemId}`, { visibility: "unlisted" });
  await page.goto(`/embed/${itemId}`);
  const early = page.locator("canvas[data-early-splats][data-drawn]");
  await expect(early, "the early splats drawn").toHaveCount(1, { timeout: 60_000 });
  const mark = await page.evaluate(() => performance.getEntriesByName("viewer:early-splats")[0]?.startTime ?? null);
  const viewerShot = () => page.getByTestId("model-viewer").screenshot({ mask: [page.locator(".mv-overlay > *")] });
  const earlyShot = await viewerShot();
  const share = await shareOfNonBackgroundPixels(page, "canvas[data-early-splats]", BACKGROUND);
  expect(await liveViewers().then((hook) => hook?.live.length ?? 0), "no viewer yet: three.js is held").toBe(0);
  process.stdout.write(`early splats on screen at ${mark?.toFixed(0)} ms, ${(share * 100).toFixed(1)} % of the canvas\n`);
  expect(share, "share of the canvas showing the guitar").toBeGreaterThan(0.02);
  // three.js arrives and the viewer starts, straight on the whole model (the coarse level is on screen already);
  // the early splats stay until the viewer has drawn something of its own.
  await three.release();
  await expect.poll(async () => (await liveViewers())?.live.length ?? 0, { timeout: 60_000 }).toBe(1);
  await page.waitForTimeout(1_000);
  await expect(early, "still on screen while the whole model is held").toHaveCount(1);
  expect(await page.evaluate(() => performance.getEntriesByName("viewer:coarse-decoded").length), "Spark does not decode the coarse level again").toBe(0);
  await model.release();
  await expectRendered("guitar after its early splats");
  await expect(page.locator("canvas[data-early-splats]")).toHaveCount(0);
  await expect.poll(async () => (await liveViewers())?.live[0]?.drawnSplats, { timeout: 30_000 }).toBe(90_854);
  // The viewer's opening frame of the whole model, from the camera the early splats used (their framing is the
  // viewer's): the same guitar in the same place, with ten times the splats.
  const sparkShot = await viewerShot();
  const [a, b] = [PNG.sync.read(earlyShot), PNG.sync.read(sparkShot)];
  // Above the bottom strip, where the progress bar (masked) and then the toolbar sit.
  const rgb = (image: PNG) => ({ width: image.width, height: image.height - 60, rgb: Uint8Array.from(image.data.subarray(0, image.width * (image.height - 60) * 4).filter((_, i) => i % 4 !== 3)) });
  const similarity = psnr(rgb(a), rgb(b));
  writeFileSync(path.join(TMP, "early-splats.png"), earlyShot);
  writeFileSync(path.join(TMP, "early-splats-then-model.png"), sparkShot);
  process.stdout.write(`early splats (coarse level) against the viewer's first frame of the whole model: PSNR ${similarity.toFixed(2)} dB (bound 25 dB)\n`);
  expect(similarity, "the early frame shows what the viewer then shows, where it shows it").toBeGreaterThan(25);
  expect(consoleMessages.filter((message) => message.type === "error" || message.type === "pageerror")).toEqual([]);
});

test("the splat formats SuperSplat users bring (.spz, .splat, .sog, each its own model_type) render from their own bytes", async () => {
  test.setTimeout(300_000);
  const samples = splatSamples();
  for (const [type, file] of [["spz", samples.spz], ["splat", samples.splat], ["sog", samples.sog]] as const) {
    const itemId = await uploadModel(`guitar ${type}`, type, new Uint8Array(readFileSync(file)));
    // .spz and .splat get a .sog delivery copy: wait for it so that ?original=1 surely shows the upload itself.
    if (type !== "sog") await waitForDeliveryCopy(itemId);
    await page.goto(`/viewer/${itemId}${type === "sog" ? "" : "?original=1"}`);
    await expectRendered(`guitar .${type}`);
    expect((await liveViewers())?.live[0].format, type).toBe(type);
  }
  expect(consoleMessages.filter((message) => message.type === "error" || message.type === "pageerror")).toEqual([]);
});

test("a corrupt copy of each sample gives a clear message, never a blank canvas or an endless spinner", async () => {
  for (const sample of SAMPLES) {
    await page.goto(`/viewer/${corrupt.get(sample.key)}`);
    const alert = page.getByTestId("model-viewer").getByRole("alert");
    await expect(alert, sample.key).toBeVisible({ timeout: 90_000 });
    await expect(page.getByTestId("model-viewer")).toHaveAttribute("data-state", "error");
    if (sample.key === "biker-spz") {
      // Truncated SPZ v4 cannot be converted, and the viewer says why it cannot read v4 itself.
      await expect(alert).toContainText("Failed to download model: This .spz file uses SPZ version 4");
    } else {
      await expect(alert).toContainText(EMPTY_OR_CORRUPTED);
    }
  }
});

test("keyboard, fly mode, double-click focus, reset view and fullscreen", async () => {
  await page.goto(`/viewer/${items.get("specular")}`);
  await expectRendered("specular");
  const canvas = page.locator('[data-testid="model-viewer"] canvas');
  // The model's pixels only: controls drawn over the canvas (hover and pressed states) are masked.
  const shot = async () => {
    await page.mouse.move(2, 898); // an empty corner: no hover state anywhere
    return canvas.screenshot({ animations: "disabled", mask: [page.getByTestId("model-viewer").locator("button")] });
  };
  const settle = () => page.waitForTimeout(700); // orbit damping comes to rest
  const framed = await shot();

  await canvas.focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowLeft");
  await settle();
  const turned = await shot();
  expect(turned.equals(framed), "arrow keys orbit").toBe(false);

  await page.keyboard.press("r");
  await settle();
  expect((await shot()).equals(framed), "R restores the framed view").toBe(true);

  // Double-click the model: the view turns around that point, closer.
  const before = await shareOfNonBackgroundPixels(page, '[data-testid="model-viewer"] canvas', BACKGROUND);
  await canvas.dblclick({ position: modelPixelNearCentre(framed) });
  await page.waitForTimeout(1_200);
  const after = await shareOfNonBackgroundPixels(page, '[data-testid="model-viewer"] canvas', BACKGROUND);
  expect(after, "the model fills more of the view after focusing").toBeGreaterThan(before);

  const flyButton = page.getByRole("button", { name: "Fly mode" });
  await page.getByRole("button", { name: "Reset view" }).click();
  await settle();
  await flyButton.click();
  await expect(flyButton).toHaveAttribute("aria-pressed", "true");
  // The button keeps the focus: Escape leaves fly mode all the same.
  await page.keyboard.press("Escape");
  await expect(flyButton).toHaveAttribute("aria-pressed", "false");
  await flyButton.click();
  await expect(flyButton).toHaveAttribute("aria-pressed", "true");
  await canvas.focus();
  await page.keyboard.down("w");
  await page.waitForTimeout(600);
  await page.keyboard.up("w");
  await settle();
  expect((await shot()).equals(framed), "W flies forward").toBe(false);
  await page.keyboard.press("Escape");
  await expect(flyButton).toHaveAttribute("aria-pressed", "false");
  await page.keyboard.press("r");
  await settle();
  expect((await shot()).equals(framed)).toBe(true);

  const fullscreen = page.getByRole("button", { name: "Full screen" });
  await fullscreen.click();
  await expect(fullscreen).toHaveAttribute("aria-pressed", "true");
  await fullscreen.click();
  await expect(fullscreen).toHaveAttribute("aria-pressed", "false");
  // Desktop Chromium has neither WebXR AR nor Quick Look: no AR button.
  await expect(page.getByRole("button", { name: "View in your space" })).toHaveCount(0);
});

test("opening and closing 20 viewers in a row gives their resources back, and views after the first download nothing new", async () => {
  const itemId = items.get("specular")!;
  await page.goto(`/item/${itemId}`);
  await expectRendered("item page");
  await cdp.send("HeapProfiler.enable");
  const heap = async () => {
    await cdp.send("HeapProfiler.collectGarbage");
    return (await cdp.send("Runtime.getHeapUsage")).usedSize;
  };
  const counts: Array<{ geometries: unknown; textures: unknown; programs: unknown }> = [];
  let baseline = 0;
  const start = (await liveViewers())!;
  for (let i = 1; i <= 20; i++) {
    // Client-side navigation between the item page and its full-screen viewer: one viewer goes, one comes.
    if (i % 2 === 1) await page.getByRole("link", { name: "Full screen" }).click();
    else await page.getByRole("link", { name: /Close full screen/ }).click();
    await page.waitForURL(i % 2 === 1 ? `**/viewer/${itemId}` : `**/item/${itemId}`);
    // The new page's viewer has shown the model (the previous one is gone).
    await expect
      .poll(async () => {
        const now = (await liveViewers())!;
        return now.created - start.created === i && now.live.length === 1 && now.live[0].readyAt !== null;
      }, { timeout: 90_000 })
      .toBe(true);
    const viewers = (await liveViewers())!;
    expect(viewers.live, `after viewer ${i}`).toHaveLength(1);
    const { geometries, textures, programs } = viewers.live[0];
    counts.push({ geometries, textures, programs });
    if (i === 2) baseline = await heap();
  }
  const end = (await liveViewers())!;
  expect(end.created - start.created).toBe(20);
  expect(end.disposed - start.disposed).toBe(20);
  // Every viewer holds the same GPU objects as the first: nothing piles up from one to the next.
  expect(new Set(counts.map((c) => JSON.stringify(c))).size).toBe(1);
  const growth = (await heap()) - baseline;
  expect(growth, "JS heap growth over 18 viewers (bytes)").toBeLessThan(8 * 1024 * 1024);
  expect(consoleMessages.filter((message) => /too many active webgl contexts/i.test(message.text))).toEqual([]);

  // The model was downloaded once: every later view revalidated it (304, headers only).
  const transfers = await page.evaluate(
    (url) => performance.getEntriesByType("resource").filter((entry) => entry.name === url).map((entry) => (entry as PerformanceResourceTiming).transferSize),
    `${BASE_URL}/v1/item/${itemId}/file`,
  );
  expect(transfers.length).toBeGreaterThanOrEqual(20);
  expect(transfers.slice(1).every((size) => size < 2_000), `bytes per later view: ${transfers.slice(1).join(", ")}`).toBe(true);
});
