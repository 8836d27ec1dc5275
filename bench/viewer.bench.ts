// Viewer figures (issue 6), printed only (no pass/fail). For guitar (90k splats), biker (153k) and a
// generated 1M-splat scene, side by side in one run, in headless Chromium (SwiftShader, no GPU):
//   - our embed page (/embed/{id}: the app, the viewer, the .sog delivery copy made on upload) versus
//   - a plain page that loads the original .ply with Spark (three + Spark from a static server, gzip JS),
// each: bytes transferred until the model is on screen, time to the first frame with splats (on the embed the
// early splats' where they come first, decision 038; the viewer's own first frame is printed beside it), time
// until the whole model is shown, and frames per second while the camera turns around the model for
// 3 s (autorotate on both; the plain page gets the embed page's camera, so both draw the model at the
// same size); then the
// first-frame and shown times again on a 10 Mbit/s link, where the transferred bytes count.
// Then the JS the embed page loads: raw, gzip and brotli bytes.
//
// Needs a build (npm run build; SCANROOM_BUILD_DIR picks another build folder), the machine's
// PostgreSQL (TEST_DATABASE_URL or 127.0.0.1:5432) and Chromium (CHROMIUM_PATH or /usr/bin/chromium);
// starts its own Auth emulator unless one runs on TEST_AUTH_EMULATOR_PORT.
//   npx tsx bench/viewer.bench.ts            BENCH_VIEWER_MODELS=guitar,biker,1m (default: all three)
//   BENCH_VIEWER_RUNS=5                      each page five times, medians printed (default 1)
//   BENCH_VIEWER_PAGE=viewer                 our full-screen page (/viewer/{id}, the model set to autorotate)
//                                            in place of the embed page
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { chromium, type Page } from "@playwright/test";
import { CHROMIUM_ARGS } from "../playwright.config";
import { migrate, seed } from "../scripts/lib/services.mjs";
import { EMULATOR_HOST, FIREBASE_PROJECT_ID, databaseUrl } from "../tests/setup/config";
import { adminQuery, generatePly, print } from "./bench-support";
import { SHARED_DATA } from "../tests/setup/shared-data";
import { summarizeTrace, type TraceSummary } from "./page-trace";
import { EARLY_SPLATS_MARK } from "../app/viewer/early-splats/events";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DATA = SHARED_DATA;
const buildDir = path.resolve(root, process.env.SCANROOM_BUILD_DIR ?? "build");
if (!existsSync(path.join(buildDir, "server/index.js"))) {
  process.stderr.write(`No build in ${buildDir}: run \`npm run build\` first.\n`);
  process.exit(1);
}
const MODELS = (process.env.BENCH_VIEWER_MODELS ?? "guitar,biker,1m").split(",");
const PAGE = process.env.BENCH_VIEWER_PAGE === "viewer" ? "viewer" : "embed";
/** BENCH_VIEWER_TRACE=1: a Chrome trace of each local run, summarised (main thread and workers until the first frame). */
const TRACE = process.env.BENCH_VIEWER_TRACE === "1";
const TURN_MS = 3_000;
/** BENCH_VIEWER_RUNS=n: each model's four pages n times over; the figures printed are medians. */
const RUNS = Math.max(1, Number(process.env.BENCH_VIEWER_RUNS ?? "1") || 1);
/** Quiet before each page: the previous page's workers and GC are done, the server idle. */
const QUIET_MS = 3_000;
const quiet = () => new Promise((resolve) => setTimeout(resolve, QUIET_MS));
const MB = 1024 * 1024;
const database = `scanroom_bench_viewer_${process.pid}`;
const work = mkdtempSync(path.join(os.tmpdir(), "scanroom-bench-viewer-"));
const storageDir = path.join(work, "storage");

/** A standard 3DGS .ply (SH degree 0) of `count` splats on a wavy torus, so it looks like something. */
function convert(input: string, output: string) {
  const cli = path.join(root, "node_modules/@playcanvas/splat-transform/bin/cli.mjs");
  const result = spawnSync(process.execPath, [cli, "--quiet", "--no-tty", "--gpu", "cpu", "--overwrite", input, output], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`splat-transform ${input}: ${result.stderr}`);
}

/** The originals as .ply files: guitar as shipped, biker converted from its .spz, and the generated scene. */
function prepareOriginals(): Array<{ name: string; file: string }> {
  const out: Array<{ name: string; file: string }> = [];
  for (const name of MODELS) {
    if (name === "guitar") out.push({ name, file: path.join(DATA, "splats/guitar.ply") });
    else if (name === "biker") {
      const file = path.join(work, "biker.ply");
      convert(path.join(DATA, "splats/biker.spz"), file);
      out.push({ name, file });
    } else if (name === "1m") {
      const file = path.join(work, "generated-1m.ply");
      writeFileSync(file, generatePly(1_000_000));
      out.push({ name: "1M generated", file });
    }
  }
  return out;
}

/** The plain page's origin: three, Spark and the .ply from disk (JS gzipped, as any host would). */
function startPlainServer(originals: Array<{ name: string; file: string }>) {
  const files: Record<string, string> = {
    "/three.module.js": path.join(root, "node_modules/three/build/three.module.js"),
    "/three.core.js": path.join(root, "node_modules/three/build/three.core.js"),
    "/spark.module.js": path.join(root, "node_modules/@sparkjsdev/spark/dist/spark.module.min.js"),
  };
  originals.forEach((original, i) => (files[`/model-${i}.ply`] = original.file));
  const gzipped = new Map<string, Buffer>();
  const page = `<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0;height:100%;background:#1e1f22}canvas{display:block;width:100%;height:100%}</style>
<script type="importmap">{"imports":{"three":"/three.module.js","three/addons/":"/three-addons/","@sparkjsdev/spark":"/spark.module.js"}}</script></head>
<body><script type="module">
import * as THREE from "three";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";
import { SparkRenderer, SplatMesh } from "@sparkjsdev/spark";
const renderer = new THREE.WebGLRenderer({ antialias: false });
renderer.setPixelRatio(Math.min(devicePixelRatio, 2));
renderer.setSize(innerWidth, innerHeight);
document.body.appendChild(renderer.domElement);
const scene = new THREE.Scene();
scene.background = new THREE.Color(0x1e1f22);
const camera = new THREE.PerspectiveCamera(45, innerWidth / innerHeight, 0.01, 1000);
const controls = new OrbitControls(camera, renderer.domElement);
const spark = new SparkRenderer({ renderer });
scene.add(spark);
const mesh = new SplatMesh({ url: new URLSearchParams(location.search).get("model") });
mesh.quaternion.set(1, 0, 0, 0);
scene.add(mesh);
window.bench = { frames: 0, firstFrameAt: null, readyAt: null };
// The same view as the embed page's (so both draw the model at the same size on screen).
const view = JSON.parse(new URLSearchParams(location.search).get("view"));
mesh.initialized.then(() => {
  camera.position.fromArray(view.position);
  controls.target.fromArray(view.target);
  const distance = camera.position.distanceTo(controls.target);
  camera.near = distance / 1000;
  camera.far = distance * 100;
  camera.updateProjectionMatrix();
  controls.autoRotate = true;
  controls.autoRotateSpeed = 1.5; // as the viewer's autorotate
  controls.update();
  renderer.setAnimationLoop(() => {
    controls.update();
    renderer.render(scene, camera);
    window.bench.frames++;
    if (window.bench.firstFrameAt === null && spark.activeSplats > 0) {
      renderer.getContext().finish();
      window.bench.firstFrameAt = performance.now();
      // "Shown" as the viewer's "ready": the next animation frame after the first one with splats.
      requestAnimationFrame(() => { window.bench.readyAt = performance.now(); });
    }
  });
});
</script></body></html>`;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/plain.html") {
      res.writeHead(200, { "Content-Type": "text/html" }).end(page);
      return;
    }
    const addon = url.pathname.startsWith("/three-addons/") ? path.join(root, "node_modules/three/examples/jsm", path.normalize(url.pathname.slice("/three-addons/".length)).replace(/^(\.\.[/\\])+/, "")) : null;
    const file = files[url.pathname] ?? (addon && existsSync(addon) ? addon : undefined);
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    if (file.endsWith(".js")) {
      if (!gzipped.has(file)) gzipped.set(file, gzipSync(readFileSync(file)));
      res.writeHead(200, { "Content-Type": "text/javascript", "Content-Encoding": "gzip" }).end(gzipped.get(file));
      return;
    }
    const body = readFileSync(file);
    res.writeHead(200, { "Content-Type": "application/octet-stream", "Content-Length": body.length }).end(body);
  });
  return new Promise<{ url: string; close: () => void }>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() })),
  );
}

interface Measured {
  bytes: number;
  /** The first frame with splats on screen: the early splats' (decision 038) where they came first. */
  firstFrameMs: number | null;
  /** The viewer's own first frame (three.js and Spark), the same as firstFrameMs without early splats. */
  viewerFirstFrameMs: number | null;
  readyMs: number | null;
  fps: number;
  scripts: string[];
  timeline?: Timeline;
  trace?: TraceSummary;
}

/** The median of each figure over runs (null where a run had none); the timeline and trace of the run nearest the median first frame. */
function medianOf<T extends Measured>(runs: T[]): T {
  const median = (values: Array<number | null>): number | null => {
    const known = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
    if (!known.length) return null;
    const mid = Math.floor(known.length / 2);
    return known.length % 2 ? known[mid]! : (known[mid - 1]! + known[mid]!) / 2;
  };
  const firstFrameMs = median(runs.map((r) => r.firstFrameMs));
  const nearest = [...runs].sort((a, b) => Math.abs((a.firstFrameMs ?? Infinity) - (firstFrameMs ?? 0)) - Math.abs((b.firstFrameMs ?? Infinity) - (firstFrameMs ?? 0)))[0]!;
  return {
    ...nearest,
    bytes: median(runs.map((r) => r.bytes)) ?? nearest.bytes,
    firstFrameMs,
    viewerFirstFrameMs: median(runs.map((r) => r.viewerFirstFrameMs)),
    readyMs: median(runs.map((r) => r.readyMs)),
    fps: median(runs.map((r) => r.fps)) ?? 0,
  };
}

/** Where a page's time goes, from its Resource Timing entries (ms since navigation start). */
interface Timeline {
  htmlDone: number;
  domContentLoaded: number;
  scriptsDone: number;
  modelStart: number | null;
  modelDone: number | null;
  /** The viewer's User Timing marks (viewer:…) and the larger requests, for BENCH_VIEWER_FILES=1. */
  marks: Array<{ name: string; at: number }>;
  requests: Array<{ name: string; start: number; end: number; kB: number }>;
}

/** The page's timeline; the model is the longest request whose URL holds `modelKey` (the item's id). */
function readTimeline(page: Page, modelKey: string): Promise<Timeline> {
  return page.evaluate((key) => {
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
    const scripts = resources.filter((entry) => entry.initiatorType === "script" || /\.m?js(\?|$)/.test(entry.name));
    const models = resources.filter((entry) => !scripts.includes(entry) && entry.name.includes(key)).sort((a, b) => b.duration - a.duration);
    const model = models[0] ?? null;
    return {
      htmlDone: nav.responseEnd,
      domContentLoaded: nav.domContentLoadedEventEnd,
      scriptsDone: Math.max(0, ...scripts.map((entry) => entry.responseEnd)),
      modelStart: model ? model.startTime : null,
      modelDone: model ? model.responseEnd : null,
      marks: performance.getEntriesByType("mark").filter((entry) => entry.name.startsWith("viewer:")).map((entry) => ({ name: entry.name, at: entry.startTime })),
      requests: resources
        .filter((entry) => entry.encodedBodySize >= 8 * 1024)
        .map((entry) => ({ name: entry.name.split("?")[0]!.split("/").pop()!, start: entry.startTime, end: entry.responseEnd, kB: Math.round(entry.encodedBodySize / 1024) })),
    };
  }, modelKey);
}

/** Loads `url`, waits for the model, then counts the frames drawn in TURN_MS while the camera turns. */
type Counters = { frames: number; firstFrameAt: number | null; viewerFirstFrameAt?: number | null; readyAt: number | null; view?: { position: number[]; target: number[] } };

/** A "fast 4G / slow broadband" link for the second run: 10 Mbit/s down, 40 ms. */
const SLOW_LINK = { bytesPerSecond: 1_250_000, latencyMs: 40 };

async function measure(page: Page, url: string, read: () => Promise<Counters | null>, { slow = false, modelKey = "" } = {}): Promise<Measured & { view?: Counters["view"] }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  if (slow) {
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: SLOW_LINK.latencyMs,
      downloadThroughput: SLOW_LINK.bytesPerSecond,
      uploadThroughput: SLOW_LINK.bytesPerSecond,
    });
  }
  // Playwright's request events include the requests of the page's workers (Spark fetches in one).
  let bytes = 0;
  const sizes: Array<Promise<void>> = [];
  page.on("requestfinished", (request) => {
    sizes.push(
      request.sizes().then((size) => {
        bytes += size.responseBodySize + size.responseHeadersSize;
      }),
    );
  });
  const scripts: string[] = [];
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  const types = new Map<string, string>();
  cdp.on("Network.responseReceived", (event) => types.set(event.requestId, event.type));
  cdp.on("Network.loadingFinished", (event) => {
    if (types.get(event.requestId) === "Script") scripts.push(event.requestId);
  });
  const scriptUrls = new Map<string, string>();
  cdp.on("Network.requestWillBeSent", (event) => scriptUrls.set(event.requestId, event.request.url));
  if (TRACE && !slow) await page.context().browser()!.startTracing(page, { categories: ["devtools.timeline", "v8.execute", "disabled-by-default-devtools.timeline", "toplevel"] });
  // Not until "load": a page busy parsing a 1M-splat .ply fires it after Playwright's 30 s; the counters below say when it is shown.
  await page.goto(url, { waitUntil: "commit" });
  let stats = await read();
  for (let i = 0; i < 600 && !stats?.readyAt; i++) {
    await page.waitForTimeout(250);
    stats = await read();
  }
  if (!stats?.readyAt) throw new Error(`${url}: the model was not shown within 150 s${errors.length ? ` (${errors.join("; ")})` : ""}`);
  await Promise.all(sizes);
  const transferred = bytes;
  if (slow) {
    await cdp.detach();
    return { bytes: transferred, firstFrameMs: stats.firstFrameAt, viewerFirstFrameMs: stats.viewerFirstFrameAt ?? stats.firstFrameAt, readyMs: stats.readyAt, fps: 0, scripts: [], view: stats.view };
  }
  const timeline = modelKey ? await readTimeline(page, modelKey) : undefined;
  const trace = TRACE && stats.firstFrameAt !== null ? summarizeTrace((await page.context().browser()!.stopTracing()).toString("utf8"), stats.firstFrameAt) : undefined;
  const before = stats.frames;
  const started = Date.now();
  await page.waitForTimeout(TURN_MS);
  const elapsed = (Date.now() - started) / 1000;
  const after = (await read())!.frames;
  await cdp.detach();
  return {
    bytes: transferred,
    firstFrameMs: stats.firstFrameAt,
    viewerFirstFrameMs: stats.viewerFirstFrameAt ?? stats.firstFrameAt,
    readyMs: stats.readyAt,
    fps: (after - before) / elapsed,
    scripts: scripts.map((id) => scriptUrls.get(id)!).filter(Boolean),
    view: stats.view,
    timeline,
    trace,
  };
}

const fmtBytes = (n: number) => (n >= MB ? `${(n / MB).toFixed(2)} MB` : `${(n / 1024).toFixed(0)} kB`);
const fmtMs = (n: number | null) => (n === null ? "—" : `${(n / 1000).toFixed(2)} s`);

await adminQuery(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
await adminQuery(`CREATE DATABASE "${database}"`);
const dbUrl = databaseUrl(database);
await migrate(dbUrl);
await seed(dbUrl);
Object.assign(process.env, {
  DATABASE_URL: dbUrl,
  STORAGE_DIR: storageDir,
  FIREBASE_AUTH_EMULATOR_HOST: EMULATOR_HOST,
  FIREBASE_PROJECT_ID,
  MODEL_XOR_KEY: "bench-xor-key",
  NODE_ENV: "production",
  LOG_LEVEL: "warn",
});
const { ensureAuthEmulator } = await import("../tests/setup/services");
const { startTestServer } = await import("../tests/setup/test-server");
const { createIdentity } = await import("../tests/setup/firebase-users");
const stopEmulator = await ensureAuthEmulator();
const app = await startTestServer();
const user = await createIdentity({ name: "Bench" });
/** A browser of its own for each page: a page left behind (the plain page's 1M-splat frames) keeps SwiftShader's
 * GPU process busy well past the quiet wait and slowed every later run in one shared browser (decision 035). */
const launchBrowser = () => chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
let plain: Awaited<ReturnType<typeof startPlainServer>> | null = null;

async function api(method: string, apiPath: string, body?: unknown) {
  const res = await fetch(`${app.url}/v1${apiPath}`, {
    method,
    headers: { Authorization: `Bearer ${user.idToken}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (res.status !== 200) throw new Error(`${method} ${apiPath}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** Uploads a .ply through the API, makes it public and waits for its .sog delivery copy. */
async function publish(name: string, file: string): Promise<{ itemId: string; seconds: number; sogBytes: number }> {
  const bytes = readFileSync(file);
  const { item_id: itemId } = await api("POST", "/item", { model_type: "ply", upload_type: "model", name });
  const link = await api("GET", `/upload/item/${itemId}?uploadType=model`);
  const put = await fetch(link.url, { method: "PUT", body: new Uint8Array(bytes) });
  if (put.status !== 200) throw new Error(`upload ${name}: ${put.status}`);
  const started = Date.now();
  await api("POST", `/item/${itemId}/file/size`, { size: bytes.length });
  await api("PATCH", `/item/${itemId}`, { visibility: "public" });
  for (let i = 0; i < 1_200; i++) {
    const item = await api("GET", `/item/${itemId}`);
    if (item.delivered_format === "sog") {
      const head = await fetch(`${app.url}/v1/item/${itemId}/file`, { method: "GET" });
      const sogBytes = Number(head.headers.get("content-length"));
      await head.body?.cancel();
      return { itemId, seconds: (Date.now() - started) / 1000, sogBytes };
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${name}: no delivery copy after 10 minutes`);
}

try {
  const originals = prepareOriginals();
  plain = await startPlainServer(originals);
  print(`Viewer bench — headless Chromium (SwiftShader, no GPU), viewport 1280×720, fps over ${TURN_MS / 1000} s of autorotation`);
  print("");
  print("                                                  ------------ local network ------------   ---- 10 Mbit/s, 40 ms ----");
  print("model          page                   transferred   first frame   model shown  fps (turning)    first frame      model shown");
  let embedScripts: string[] = [];
  for (const [index, original] of originals.entries()) {
    const published = await publish(original.name, original.file);
    // The embed page's counters come from the viewer's diagnostics hook (app/viewer/diagnostics.ts).
    // The full-screen page turns the model as its settings say; the embed as its query says.
    if (PAGE === "viewer") await api("PATCH", `/item/${published.itemId}/settings`, { autorotate: true });
    const embedUrl = PAGE === "viewer" ? `${app.url}/viewer/${published.itemId}` : `${app.url}/embed/${published.itemId}?autorotate=1`;
    // The first frame is the earlier of the early splats' mark (app/viewer/early-splats) and the viewer's own.
    const readEmbed = (page: Page) => () =>
      page.evaluate((earlyMark) => {
        const hook = (window as unknown as { __scanroomViewers?: () => { live: Counters[] } }).__scanroomViewers;
        const live = hook?.().live[0] ?? null;
        if (!live) return null;
        const early = performance.getEntriesByName(earlyMark)[0]?.startTime ?? null;
        const first = early !== null && (live.firstFrameAt === null || early < live.firstFrameAt) ? early : live.firstFrameAt;
        return { ...live, firstFrameAt: first, viewerFirstFrameAt: live.firstFrameAt };
      }, EARLY_SPLATS_MARK);
    const readPlain = (page: Page) => () => page.evaluate(() => (window as unknown as { bench?: Counters }).bench ?? null);
    const run = async (url: string, read: (page: Page) => () => Promise<Counters | null>, slow = false, modelKey = "") => {
      const browser = await launchBrowser();
      try {
        const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
        const page = await context.newPage();
        return await measure(page, url, read(page), { slow, modelKey });
      } finally {
        await browser.close();
      }
    };
    // RUNS rounds of the four pages, each page after QUIET_MS of quiet; the rows print each figure's median.
    const rounds: Array<{ embed: Measured; baseline: Measured; embedSlow: Measured; baselineSlow: Measured }> = [];
    let plainUrl = "";
    for (let round = 0; round < RUNS; round++) {
      await quiet();
      const embedRun = await run(embedUrl, readEmbed, false, published.itemId);
      plainUrl ||= `${plain.url}/plain.html?model=/model-${index}.ply&view=${encodeURIComponent(JSON.stringify(embedRun.view))}`;
      await quiet();
      const baselineRun = await run(plainUrl, readPlain);
      await quiet();
      const embedSlowRun = await run(embedUrl, readEmbed, true);
      await quiet();
      const baselineSlowRun = await run(plainUrl, readPlain, true);
      rounds.push({ embed: embedRun, baseline: baselineRun, embedSlow: embedSlowRun, baselineSlow: baselineSlowRun });
    }
    const embed = medianOf(rounds.map((r) => r.embed));
    const baseline = medianOf(rounds.map((r) => r.baseline));
    const embedSlow = medianOf(rounds.map((r) => r.embedSlow));
    const baselineSlow = medianOf(rounds.map((r) => r.baselineSlow));
    embedScripts = embed.scripts;
    const label = original.name.padEnd(14);
    const row = (name: string, m: Measured, slowRun: Measured) =>
      `${name.padEnd(22)} ${fmtBytes(m.bytes).padStart(11)}   ${fmtMs(m.firstFrameMs).padStart(11)}   ${fmtMs(m.readyMs).padStart(11)}   ${m.fps.toFixed(1).padStart(10)}   ${fmtMs(slowRun.firstFrameMs).padStart(14)}   ${fmtMs(slowRun.readyMs).padStart(14)}`;
    print(`${label} ${row(`${PAGE} (.sog ${fmtBytes(published.sogBytes)})`, embed, embedSlow)}`);
    print(`${"".padEnd(14)} ${row("plain Spark (.ply)", baseline, baselineSlow)}`);
    const ratio = (a: number | null, b: number | null) => (a !== null && b ? `${(a / b).toFixed(2)}×` : "—");
    if (embed.viewerFirstFrameMs !== embed.firstFrameMs) {
      print(`${"".padEnd(14)} ${PAGE}: early splats (coarse level, before the viewer) ${fmtMs(embed.firstFrameMs)}, the viewer's own first frame ${fmtMs(embed.viewerFirstFrameMs)} (${fmtMs(embedSlow.viewerFirstFrameMs)} at 10 Mbit/s)`);
    }
    print(`${"".padEnd(14)} ${PAGE} / plain first frame${RUNS > 1 ? ` (medians of ${RUNS} runs)` : ""}: ${ratio(embed.firstFrameMs, baseline.firstFrameMs)} local, ${ratio(embedSlow.firstFrameMs, baselineSlow.firstFrameMs)} at 10 Mbit/s; shown: ${ratio(embed.readyMs, baseline.readyMs)} local, ${ratio(embedSlow.readyMs, baselineSlow.readyMs)} at 10 Mbit/s`);
    if (RUNS > 1) {
      // Each run's own ratio (embed against the plain page measured just after it), the best of them.
      const best = (pick: (r: (typeof rounds)[number]) => [number | null, number | null]) => {
        const ratios = rounds.map(pick).flatMap(([a, b]) => (a !== null && b ? [a / b] : []));
        return ratios.length ? `${Math.min(...ratios).toFixed(2)}×` : "—";
      };
      print(`${"".padEnd(14)} best run's ratio, first frame: ${best((r) => [r.embed.firstFrameMs, r.baseline.firstFrameMs])} local, ${best((r) => [r.embedSlow.firstFrameMs, r.baselineSlow.firstFrameMs])} at 10 Mbit/s; shown: ${best((r) => [r.embed.readyMs, r.baseline.readyMs])} local, ${best((r) => [r.embedSlow.readyMs, r.baselineSlow.readyMs])} at 10 Mbit/s`);
      print(`${"".padEnd(14)} first frames per run, local ${PAGE} / plain: ${rounds.map((r) => `${fmtMs(r.embed.firstFrameMs)} / ${fmtMs(r.baseline.firstFrameMs)}`).join(", ")}`);
    }
    const t = embed.timeline;
    if (t) {
      // The viewer's decode and first sort: from its own first frame (the early splats' come before the scripts).
      const decode = embed.viewerFirstFrameMs !== null && t.modelDone !== null ? embed.viewerFirstFrameMs - Math.max(t.modelDone, t.scriptsDone) : null;
      if (process.env.BENCH_VIEWER_FILES === "1") {
        for (const r of t.requests) print(`${"".padEnd(16)} request ${r.name.slice(0, 40).padEnd(40)} ${String(r.kB).padStart(6)} kB  ${fmtMs(r.start)}–${fmtMs(r.end)}`);
        print(`${"".padEnd(16)} viewer marks: ${t.marks.map((m) => `${m.name.slice("viewer:".length)} ${fmtMs(m.at)}`).join(", ")}`);
      }
      print(`${"".padEnd(14)} ${PAGE} timeline (local): HTML ${fmtMs(t.htmlDone)}, scripts loaded ${fmtMs(t.scriptsDone)}, DOMContentLoaded ${fmtMs(t.domContentLoaded)}, model request ${fmtMs(t.modelStart)}–${fmtMs(t.modelDone)}, the viewer's decode + first sort ${fmtMs(decode)}, first frame ${fmtMs(embed.firstFrameMs)}`);
    }
    for (const [name, m] of [[PAGE, embed], ["plain", baseline]] as const) {
      if (!m.trace) continue;
      const causes = m.trace.mainByCause.slice(0, 8).map(({ cause, ms }) => `${cause} ${fmtMs(ms)}`).join(", ");
      const workers = m.trace.workers.map(({ name: worker, ms }) => `${worker} ${fmtMs(ms)}`).join(", ");
      print(`${"".padEnd(14)} ${name} trace until first frame: main thread busy ${fmtMs(m.trace.mainBusyMs)} (${causes}); workers: ${workers || "—"}`);
    }
    print(`${"".padEnd(14)} (.ply ${fmtBytes(readFileSync(original.file).length)}; .sog delivery copy made in ${published.seconds.toFixed(1)} s after the upload)`);
  }

  // The JS of the embed page: what the browser fetched, measured raw and compressed the two usual ways.
  let raw = 0;
  let gzip = 0;
  let brotli = 0;
  const seen = new Set<string>();
  const perFile: Array<{ file: string; brotli: number }> = [];
  for (const url of embedScripts) {
    if (seen.has(url)) continue;
    seen.add(url);
    const body = Buffer.from(await (await fetch(url, { headers: { "Accept-Encoding": "identity" } })).arrayBuffer());
    raw += body.length;
    gzip += gzipSync(body, { level: 9 }).length;
    const compressed = brotliCompressSync(body).length;
    brotli += compressed;
    perFile.push({ file: url.split("/").pop()!, brotli: compressed });
  }
  print("");
  print(`JS loaded by the ${PAGE} page for a splat: ${seen.size} files, ${fmtBytes(raw)} raw, ${fmtBytes(gzip)} gzip, ${fmtBytes(brotli)} brotli`);
  if (process.env.BENCH_VIEWER_FILES === "1") for (const { file, brotli: size } of perFile.sort((a, b) => b.brotli - a.brotli)) print(`  ${file.padEnd(48)} ${fmtBytes(size).padStart(8)} brotli`);
} finally {
  plain?.close();
  await app.close();
  const { stopQueue } = await import("~/jobs/queue.server");
  await stopQueue();
  const { disconnectDb } = await import("~/db.server");
  await disconnectDb();
  await stopEmulator();
  await adminQuery(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  rmSync(work, { recursive: true, force: true });
}
process.exit(0);
