// Upload figures (issue 4), printed only (no pass/fail). Needs a build (npm run build) and the
// machine's PostgreSQL (TEST_DATABASE_URL or 127.0.0.1:5432); starts its own Auth emulator unless
// one runs on TEST_AUTH_EMULATOR_PORT. Run:
//   npx tsx bench/upload.bench.ts                  (both, on local disk and on S3)
//   npx tsx bench/upload.bench.ts images s3        (or: video; local)
// 1. Throughput of 300 × 2 MB images through the app — the dialog's image-set flow (upload links in
//    batches of 100 from POST /v1/upload/image/{id}/files, the PUTs 4 at a time, then the scan request) and
//    the per-file flow it replaced (SPEC's GET …/file for each photo) — versus plain PUTs of the same bytes
//    to the same store (signed URLs made beforehand), and their ratios; on local disk and on S3 (the test
//    suite's S3 server: s3rver behind our signature-checking edge, each mode in a process of its own).
// 2. A 500 MB video uploaded in parts, whole, and then cut at 50 % (the connection drops under the
//    parts in flight): the time from the cut to the end of the upload, and what was sent again.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrate, seed } from "../scripts/lib/services.mjs";
import { EMULATOR_HOST, FIREBASE_PROJECT_ID, databaseUrl } from "../tests/setup/config";
import { adminQuery, print } from "./bench-support";

const which = process.argv[2] ?? "both";
const stores = process.argv[3] ?? "both";
if (stores === "both") {
  // The storage driver is fixed per process: one child per store.
  const { spawnSync } = await import("node:child_process");
  for (const store of ["local", "s3"]) {
    const run = spawnSync(process.execPath, ["--import", "tsx", process.argv[1], which, store], { stdio: "inherit" });
    if (run.status !== 0) process.exit(run.status ?? 1);
  }
  process.exit(0);
}
const database = `scanroom_bench_upload_${process.pid}`;
const storageDir = mkdtempSync(path.join(os.tmpdir(), "scanroom-bench-upload-"));
const MB = 1024 * 1024;

await adminQuery(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
await adminQuery(`CREATE DATABASE "${database}"`);
const url = databaseUrl(database);
await migrate(url);
await seed(url);
Object.assign(process.env, {
  DATABASE_URL: url,
  STORAGE_DIR: storageDir,
  FIREBASE_AUTH_EMULATOR_HOST: EMULATOR_HOST,
  FIREBASE_PROJECT_ID,
  LOG_LEVEL: "warn",
});

const { ensureAuthEmulator, ensureS3Server } = await import("../tests/setup/services");
let stopS3 = async () => {};
if (stores === "s3") {
  stopS3 = await ensureS3Server();
  const { s3AppEnv } = await import("../tests/setup/config");
  Object.assign(process.env, s3AppEnv());
}
const { startTestServer } = await import("../tests/setup/test-server");
const { createIdentity } = await import("../tests/setup/firebase-users");
const { ApiError } = await import("~/lib/api-client");
const { runPool, TransferError, uploadImageSetScan, uploadInParts } = await import("~/components/upload-flows");
const { partSizeFor } = await import("~/lib/upload-rules");
type ApiClient = import("~/lib/api-client").ApiClient;
type PutBlob = import("~/components/upload-flows").PutBlob;

const stopEmulator = await ensureAuthEmulator();
const server = await startTestServer();
const user = await createIdentity({ name: "Bench" });
{
  // An unlimited plan: every round ends with a scan request.
  const { db } = await import("~/db.server");
  const me = await fetch(`${server.url}/v1/user`, { headers: { Authorization: `Bearer ${user.idToken}` } }).then((r) => r.json());
  const pro = await db().plan.findUniqueOrThrow({ where: { planType: "pro" } });
  await db().subscription.update({ where: { userId: me.data.user.id }, data: { planId: pro.id } });
}

/** The dialog's API client, for Node: JSON over fetch with the bearer token. */
const api = (async (apiPath: string, request: { method?: string; body?: unknown; query?: Record<string, unknown> } = {}) => {
  const target = new URL(`${server.url}/v1${apiPath}`);
  for (const [key, value] of Object.entries(request.query ?? {})) if (value !== undefined) target.searchParams.set(key, String(value));
  const method = request.method ?? "GET";
  const res = await fetch(target, {
    method,
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${user.idToken}` },
    body: method === "GET" ? undefined : JSON.stringify(request.body ?? {}),
  });
  const payload = await res.json();
  if (res.status !== 200) throw new ApiError(payload.status, payload.error, payload.message);
  return payload.data;
}) as ApiClient;

/** PUT over fetch; `signal` lets the video bench drop the connection. */
function fetchPut(signalFor?: () => AbortSignal): PutBlob {
  return async (target, body, onProgress) => {
    let res: Response;
    try {
      res = await fetch(target, { method: "PUT", body, signal: signalFor?.() });
    } catch {
      throw new TransferError("The connection was lost during the upload.", null);
    }
    if (!res.ok) throw new TransferError(`PUT answered ${res.status}`, res.status);
    await res.arrayBuffer();
    onProgress(body.size);
  };
}

const seconds = (from: number) => (performance.now() - from) / 1000;

async function imagesBench() {
  const count = 300;
  const size = 2 * MB;
  // Distinct 2 MB "JPEGs" (JPEG magic bytes, random payload): the server checks the magic bytes.
  const files = Array.from({ length: count }, (_, i) => {
    const bytes = randomBytes(size);
    bytes.set([0xff, 0xd8, 0xff, 0xe0], 0);
    return new File([bytes], `photo-${i + 1}.jpg`, { type: "image/jpeg" });
  });
  const totalMb = (count * size) / MB;

  const plain = async () => {
    const { storage } = await import("~/storage/index.server");
    const urls = await Promise.all(
      files.map((_, i) => storage().createUploadUrl({ key: `bench/plain-${randomBytes(4).toString("hex")}/${i}.jpg`, expiresInSeconds: 3600, maxBytes: size })),
    );
    const started = performance.now();
    const put = fetchPut();
    await runPool(files, 4, (file, i) => put(urls[i], file, () => undefined));
    return seconds(started);
  };
  const throughApp = async () => {
    const started = performance.now();
    await uploadImageSetScan({ api, files, put: fetchPut(), concurrency: 4 });
    return seconds(started);
  };
  /** The flow before batch links: one GET …/file per photo, asked for one lane ahead, then its PUT. */
  const perFile = async () => {
    const started = performance.now();
    const { item_id: itemId } = await api<{ item_id: string }>("/item", { method: "POST", body: { model_type: "ply", upload_type: "image", name: "bench" } });
    const folder = await api<{ path: string }>(`/upload/image/${itemId}`);
    const put = fetchPut();
    const links = new Map<number, Promise<{ url: string }>>();
    const linkFor = (i: number) => {
      if (i >= files.length) return null;
      if (!links.has(i)) links.set(i, api<{ url: string }>(`/upload/image/${itemId}/file`, { query: { filename: `image-${String(i + 1).padStart(3, "0")}.jpg` } }));
      return links.get(i)!;
    };
    await runPool(files, 4, async (file, i) => {
      const link = await linkFor(i)!;
      linkFor(i + 4);
      await put(link.url, file, () => undefined);
    });
    await api(`/scan/image/${itemId}`, { method: "POST", body: { input_bucket_path: folder.path } });
    return seconds(started);
  };

  print(`\n300 × 2 MB images (${totalMb} MB), 4 at a time, ${stores === "s3" ? `to S3 at ${process.env.S3_ENDPOINT}` : "to local disk"} through ${server.url}`);
  const runs: Array<{ plain: number; batch: number; perFile: number }> = [];
  for (let round = 0; round < 2; round++) runs.push({ plain: await plain(), batch: await throughApp(), perFile: await perFile() });
  for (const [i, run] of runs.entries()) {
    print(
      `  round ${i + 1}: plain PUTs ${run.plain.toFixed(2)} s (${(totalMb / run.plain).toFixed(0)} MB/s); ` +
        `batch links ${run.batch.toFixed(2)} s (${(totalMb / run.batch).toFixed(0)} MB/s, ratio ${(run.plain / run.batch).toFixed(2)}); ` +
        `per-file links ${run.perFile.toFixed(2)} s (${(totalMb / run.perFile).toFixed(0)} MB/s, ratio ${(run.plain / run.perFile).toFixed(2)}) — ratios are throughput against plain PUTs, incl. the scan request`,
    );
  }
}

async function videoBench() {
  const size = 500 * MB;
  const chunk = randomBytes(8 * MB);
  chunk.set([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70], 0); // an MP4 "ftyp" box at the start
  const video = new Blob(Array.from({ length: Math.ceil(size / chunk.length) }, () => chunk)).slice(0, size);
  const partSize = partSizeFor(size);
  const newUpload = async () => {
    const { item_id: itemId } = await api<{ item_id: string }>("/item", { method: "POST", body: { model_type: "ply", upload_type: "video", name: "bench" } });
    return api<{ path: string; part_urls: string[]; part_size: number }>(`/upload/video/${itemId}`, { query: { size, filename: "bench.mp4" } });
  };
  const fastRetry = { attempts: 6, baseDelayMs: 500, maxDelayMs: 4000, sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)), waitUntilOnline: async () => {} };

  print(`\n500 MB video in ${Math.ceil(size / partSize)} parts of ${partSize / MB} MiB, 3 at a time`);
  const whole = await newUpload();
  let started = performance.now();
  await uploadInParts({ file: video, partUrls: whole.part_urls, partSize: whole.part_size, put: fetchPut(), retry: fastRetry });
  const wholeSeconds = seconds(started);
  print(`  whole upload: ${wholeSeconds.toFixed(2)} s (${(500 / wholeSeconds).toFixed(0)} MB/s)`);

  // The same upload, with the connection dropped once half the bytes have arrived.
  const cut = await newUpload();
  let done = 0;
  let cutAt = 0;
  let resent = 0;
  let dropped = false;
  const connection = new AbortController();
  const inFlight = new Map<string, number>();
  const put: PutBlob = async (target, body, onProgress) => {
    inFlight.set(target, body.size);
    try {
      await fetchPut(() => (dropped ? new AbortController().signal : connection.signal))(target, body, onProgress);
    } catch (error) {
      resent += body.size; // this part goes again
      throw error;
    } finally {
      inFlight.delete(target);
    }
    done += body.size;
    if (!dropped && done >= size / 2) {
      dropped = true;
      cutAt = performance.now();
      connection.abort();
    }
  };
  started = performance.now();
  await uploadInParts({ file: video, partUrls: cut.part_urls, partSize: cut.part_size, put, retry: fastRetry });
  const resumeSeconds = seconds(cutAt);
  print(
    `  cut at 50 %: resumed and finished ${resumeSeconds.toFixed(2)} s after the cut (includes the 0.5 s retry backoff); ` +
      `sent again ${(resent / MB).toFixed(0)} MB (the parts in flight), not ${(size / 2 / MB).toFixed(0)} MB; total ${seconds(started).toFixed(2)} s`,
  );

  const { storage } = await import("~/storage/index.server");
  const key = cut.path;
  started = performance.now();
  const assembled = await storage().completeMultipartUpload({ key, size, partSize });
  print(`  assembling the parts into one object (done by the scan request): ${seconds(started).toFixed(2)} s (${assembled.status})`);
}

try {
  if (which === "both" || which === "images") await imagesBench();
  if (which === "both" || which === "video") await videoBench();
} finally {
  await server.close();
  const { stopQueue } = await import("~/jobs/queue.server");
  await stopQueue();
  const { disconnectDb } = await import("~/db.server");
  await disconnectDb();
  await stopEmulator();
  await stopS3();
  await adminQuery(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  rmSync(storageDir, { recursive: true, force: true });
}
process.exit(0);
