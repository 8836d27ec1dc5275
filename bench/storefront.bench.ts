// What the theme block costs a storefront (issue 7), printed only (no pass/fail): Lighthouse mobile (its default
// configuration: emulated mid-range phone, simulated slow 4G and 4× CPU slowdown) on the static product page of
// tests/setup/storefront.ts, measured in the same run
//   - without the app (the baseline: no block, none of its assets),
//   - with the block: poster + click-to-load (what ships),
//   - with the block and the viewer loaded eagerly (the poster clicked at DOMContentLoaded), for context,
// each as the median of BENCH_RUNS runs (default 3), each run in a fresh Chromium with an empty cache.
// Printed: performance score, LCP, TBT, CLS, and the JavaScript transferred before any interaction (all frames).
//
// The block's viewer is the real /embed/{id} of the built app (`npm run build`; SCANROOM_BUILD_DIR picks another
// build folder) on http://localhost:PORT, with a ready model (shared/data/models/cat.glb, 3.6 MB) and a poster;
// the product page and the extension's assets come from a static "store" on http://127.0.0.1:PORT, gzipped like
// Shopify's CDN. Needs PostgreSQL (TEST_DATABASE_URL) and Chromium (CHROMIUM_PATH, default /usr/bin/chromium);
// nothing beyond localhost is reached. Uses a scratch database it drops.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import type { DecodedIdToken } from "firebase-admin/auth";
import lighthouse from "lighthouse";
import { CHROMIUM_ARGS } from "../playwright.config";
import { createDatabaseFromTemplate, dropDatabase, prepareTemplateDatabase } from "../tests/setup/services";
import { EXTENSION_DIR, productPage } from "../tests/setup/storefront";
import { buildDir, exitUnlessBuilt, listenOnFreePort, root, startBuiltApp } from "./app-server";
import { print, templateExists } from "./bench-support";
import { SHARED_DATA } from "../tests/setup/shared-data";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
exitUnlessBuilt();
const MODEL_FILE = path.join(SHARED_DATA, "models/cat.glb");
const ASSET_PATH = "/cdn/shop/extensions/scanroom-3d/assets";
const VARIANTS = [
  { id: 4401, title: "Sand" },
  { id: 4402, title: "Basalt" },
];

/**
 * The poster as the scan pipeline makes a thumbnail (app/worker/stages/export.server.ts: JPEG, 640 px wide,
 * -q:v 4), here of ffmpeg's test picture.
 */
function posterJpeg(): Buffer {
  const result = spawnSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=640x640:rate=1", "-frames:v", "1", "-q:v", "4", "-f", "mjpeg", "-"], {
    maxBuffer: 16 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`ffmpeg: ${result.stderr.toString()}`);
  return result.stdout;
}

/** A merchant's ready, public model with a poster, made through the app's own domain functions. */
async function seedModel() {
  const { getOrCreateUserForIdentity } = await import("~/domain/users.server");
  const { createItem } = await import("~/domain/items.server");
  const { createItemUploadUrl, confirmModelFile } = await import("~/domain/uploads.server");
  const { storage } = await import("~/storage/index.server");
  const { thumbnailKey } = await import("~/storage/keys");
  const { db } = await import("~/db.server");
  const identity = { uid: "bench-storefront", email: "store@example.com", email_verified: true, name: "Sample store" };
  const user = await getOrCreateUserForIdentity(identity as unknown as DecodedIdToken);
  const item = await createItem({ ownerId: user.id, modelType: "glb", uploadType: "model", name: "Egyptian cat statue" });
  const upload = await createItemUploadUrl({ itemId: item.id, ownerId: user.id, uploadType: "model" });
  const model = readFileSync(MODEL_FILE);
  await storage().write(upload.path, model);
  await confirmModelFile({ itemId: item.id, ownerId: user.id, size: model.length });
  const poster = thumbnailKey(item.id);
  const posterBytes = posterJpeg();
  await storage().write(poster, posterBytes);
  const ready = await db().item.update({ where: { id: item.id }, data: { visibility: "public", thumbnailKey: poster } });
  return { item: ready, posterBytes: posterBytes.length };
}

/** The "store": product pages by name and the extension's assets, gzipped, as Shopify's CDN serves them. */
async function startStore(pages: Record<string, string>) {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://store");
    let body: Buffer;
    let type: string;
    if (url.pathname.startsWith(`${ASSET_PATH}/`)) {
      const name = path.basename(url.pathname);
      body = readFileSync(path.join(EXTENSION_DIR, "assets", name));
      type = name.endsWith(".js") ? "text/javascript" : "text/css";
    } else if (url.pathname.startsWith("/products/") && pages[url.pathname.slice("/products/".length)]) {
      body = Buffer.from(pages[url.pathname.slice("/products/".length)]);
      type = "text/html; charset=utf-8";
    } else {
      res.writeHead(404).end();
      return;
    }
    const gzip = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
    res.writeHead(200, { "Content-Type": type, "Cache-Control": "public, max-age=3600", ...(gzip ? { "Content-Encoding": "gzip" } : {}) });
    res.end(gzip ? gzipSync(body) : body);
  });
  const port = await listenOnFreePort(server, "127.0.0.1");
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

interface Figures {
  score: number;
  lcp: number;
  tbt: number;
  cls: number;
  jsBytes: number;
  jsRequests: number;
  embedLoaded: boolean;
  lcpElement: string;
  origins: string[];
}

/** The LCP element of a run, shortly: its tag and label (`img "Egyptian cat statue"`, `h1 "Sample chair"`). */
function lcpElementOf(details: unknown): string {
  const queue: unknown[] = [details];
  while (queue.length) {
    const value = queue.shift();
    if (!value || typeof value !== "object") continue;
    const node = value as { type?: string; snippet?: string; nodeLabel?: string };
    if (node.type === "node") return `${/^<(\w+)/.exec(node.snippet ?? "")?.[1] ?? "?"} "${(node.nodeLabel ?? "").slice(0, 24)}"`;
    queue.push(...Object.values(value));
  }
  return "?";
}

/** One Lighthouse mobile run (default config) in a fresh Chromium. */
async function lighthouseRun(url: string, appOrigin: string): Promise<Figures> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_ARGS, logLevel: "silent" });
  try {
    const result = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance"] });
    if (!result) throw new Error("Lighthouse returned nothing");
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const requests = ((lhr.audits["network-requests"].details as { items?: Array<Record<string, unknown>> }).items ?? []) as Array<{
      url: string;
      resourceType?: string;
      transferSize?: number;
    }>;
    const scripts = requests.filter((r) => r.resourceType === "Script");
    return {
      score: Math.round((lhr.categories.performance.score ?? 0) * 100),
      lcp: lhr.audits["largest-contentful-paint"].numericValue ?? NaN,
      tbt: lhr.audits["total-blocking-time"].numericValue ?? NaN,
      cls: lhr.audits["cumulative-layout-shift"].numericValue ?? NaN,
      jsBytes: scripts.reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
      jsRequests: scripts.length,
      embedLoaded: requests.some((r) => r.url.startsWith(`${appOrigin}/embed/`)),
      lcpElement: lcpElementOf(lhr.audits["largest-contentful-paint-element"]?.details),
      origins: requests.map((r) => (URL.canParse(r.url) ? new URL(r.url).origin : r.url)),
    };
  } finally {
    chrome.kill();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

async function main() {
  const name = `scanroom_bench_storefront_${randomBytes(4).toString("hex")}`;
  if (!(await templateExists())) await prepareTemplateDatabase();
  const url = await createDatabaseFromTemplate(name);
  const storageDir = mkdtempSync(path.join(os.tmpdir(), "scanroom-bench-storefront-"));
  let closeApp = async () => {};
  let closeStore = async () => {};
  try {
    // On every interface, named localhost: another origin than the store's 127.0.0.1, as a real storefront's is.
    const app = await startBuiltApp({ databaseUrl: url, storageDir, originHost: "localhost" });
    const appOrigin = app.origin;
    closeApp = app.close;

    const { item, posterBytes } = await seedModel();
    const { buildModelMetafield } = await import("~/lib/shopify-model-metafield");
    const metafield = buildModelMetafield([{ variantGid: "", item }], appOrigin);
    const common = { metafield, variants: VARIANTS };
    const withBlock = await productPage({ ...common, assetBase: ASSET_PATH });
    const eagerScript = `<script>
  // For comparison only: the viewer loaded as soon as the page is ready, without the shopper asking.
  document.addEventListener("DOMContentLoaded", function () { document.querySelector("[data-scanroom-3d] [data-poster]").click(); });
</script>
</body>`;
    const store = await startStore({
      "without-app": await productPage({ ...common, assetBase: null }),
      "with-block": withBlock,
      "eager-viewer": withBlock.replace("</body>", eagerScript),
    });
    closeStore = store.close;

    const loader = readFileSync(path.join(EXTENSION_DIR, "assets/scanroom-3d.js"));
    print(`viewer: /embed/${item.id} of the built app (${path.relative(root, buildDir)}) on ${appOrigin}; model cat.glb, ${(readFileSync(MODEL_FILE).length / 1e6).toFixed(1)} MB; poster JPEG 640 px, ${(posterBytes / 1024).toFixed(0)} KB`);
    print(`store: static product page (tests/setup/storefront.ts) on ${store.url}; block loader ${loader.length} B, ${gzipSync(loader).length} B gzipped`);
    const lighthouseVersion = JSON.parse(readFileSync(path.join(root, "node_modules/lighthouse/package.json"), "utf8")).version;
    print(`Lighthouse ${lighthouseVersion}, mobile defaults, median of ${RUNS} runs, fresh Chromium each\n`);

    const variants = [
      { key: "without-app", label: "baseline: page without the app" },
      { key: "with-block", label: "block: poster + click-to-load" },
      { key: "eager-viewer", label: "context: viewer loaded eagerly" },
    ];
    const runs = new Map<string, Figures[]>(variants.map((v) => [v.key, []]));
    for (let run = 0; run < RUNS; run++) {
      // Interleaved, so a slow spell of the machine hits every variant alike.
      for (const v of variants) runs.get(v.key)!.push(await lighthouseRun(`${store.url}/products/${v.key}`, appOrigin));
    }

    print(`${"page".padEnd(34)} ${"score".padStart(5)} ${"LCP ms".padStart(8)} ${"TBT ms".padStart(8)} ${"CLS".padStart(6)} ${"JS KB".padStart(8)} ${"JS req".padStart(6)}  viewer loaded  LCP element (last run)         scores per run`);
    for (const v of variants) {
      const figures = runs.get(v.key)!;
      const m = (pick: (f: Figures) => number) => median(figures.map(pick));
      print(
        `${v.label.padEnd(34)} ${String(m((f) => f.score)).padStart(5)} ${m((f) => f.lcp).toFixed(0).padStart(8)} ${m((f) => f.tbt).toFixed(0).padStart(8)} ${m((f) => f.cls).toFixed(3).padStart(6)} ${(m((f) => f.jsBytes) / 1024).toFixed(1).padStart(8)} ${String(m((f) => f.jsRequests)).padStart(6)}  ${(figures.every((f) => f.embedLoaded) ? "yes" : figures.some((f) => f.embedLoaded) ? "some runs" : "no").padEnd(13)}  ${figures[figures.length - 1].lcpElement.padEnd(29)} ${figures.map((f) => f.score).join(", ")}`,
      );
    }
    const base = runs.get("without-app")!;
    const block = runs.get("with-block")!;
    const cost = median(base.map((f) => f.score)) - median(block.map((f) => f.score));
    print(`\nthe block's cost: ${cost} point${cost === 1 ? "" : "s"} of the median score (Shopify allows 10; we aim for at most 1)`);
    const origins = new Set([...runs.values()].flat().flatMap((f) => f.origins));
    print(`origins the pages reached: ${[...origins].sort().join(", ")}`);
  } finally {
    await closeStore();
    await closeApp();
    const { disconnectDb } = await import("~/db.server");
    await disconnectDb().catch(() => {});
    await dropDatabase(name);
    rmSync(storageDir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
