// Explore with 10,000 public models: server response time and transferred bytes of the Explore page
// (first page, sorts, search, category, a deep cursor page), next to baselines measured in the same run
// (a static asset and GET /v1/categories). Prints figures only; there is no pass/fail.
//
// Needs PostgreSQL (TEST_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/test) and a build
// (`npm run build`; SCANROOM_BUILD_DIR picks another build folder). Uses a scratch database it drops.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import pg from "pg";
import { createDatabaseFromTemplate, dropDatabase, prepareTemplateDatabase } from "../tests/setup/services";
import { exitUnlessBuilt, startBuiltApp } from "./app-server";
import { insertPublicModels, quantile, templateExists } from "./bench-support";

const ITEMS = Number(process.env.BENCH_ITEMS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
exitUnlessBuilt();

/** 10,000 public, ready models from 100 owners over the last year, in 9 categories, with Zipf-like views. */
const seed = (url: string) =>
  insertPublicModels(url, { count: ITEMS, owners: 100, spacingMs: 3_000_000, fileOf: (i) => ({ key: `items/bench/${i}.glb`, size: 123456 }) });

interface Sample {
  ms: number;
  bytes: number;
  status: number;
}

/** One GET with gzip allowed: time to the last byte and bytes on the wire (body as sent, headers excluded). */
function get(base: string, pathName: string): Promise<Sample & { body: Buffer; encoding?: string }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = httpRequest(`${base}${pathName}`, { headers: { "Accept-Encoding": "gzip" } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const body = Buffer.concat(chunks);
        resolve({
          ms: Number(process.hrtime.bigint() - started) / 1e6,
          bytes: body.length,
          status: res.statusCode ?? 0,
          body,
          encoding: res.headers["content-encoding"],
        });
      });
    });
    req.on("error", reject);
    req.end();
  });
}


async function measure(base: string, label: string, pathName: string) {
  for (let i = 0; i < 3; i++) await get(base, pathName); // warm-up
  const samples: Sample[] = [];
  for (let i = 0; i < RUNS; i++) samples.push(await get(base, pathName));
  const statuses = [...new Set(samples.map((s) => s.status))].join(",");
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  return { label, path: pathName, statuses, median: quantile(ms, 0.5), p95: quantile(ms, 0.95), bytes: samples[0].bytes };
}

async function main() {
  const name = `scanroom_bench_${randomBytes(4).toString("hex")}`;
  if (!(await templateExists())) await prepareTemplateDatabase();
  const url = await createDatabaseFromTemplate(name);
  const storageDir = mkdtempSync(path.join(os.tmpdir(), "scanroom-bench-"));
  let close = async () => {};
  try {
    const seeded = Date.now();
    await seed(url);
    process.stdout.write(`seeded ${ITEMS} public models in ${((Date.now() - seeded) / 1000).toFixed(1)} s\n`);

    const app = await startBuiltApp({ databaseUrl: url, storageDir, listenHost: "127.0.0.1", originHost: "127.0.0.1" });
    const base = app.origin;
    close = app.close;

    // A cursor 20 pages deep (480 models in), taken from the loader's own JSON.
    let cursor: string | null = null;
    for (let i = 0; i < 20; i++) {
      const page: Awaited<ReturnType<typeof get>> = await get(base, `/?index&_data=routes%2F_index${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      const text = (page.encoding === "gzip" ? gunzipSync(page.body) : page.body).toString("utf8");
      cursor = JSON.parse(text).nextCursor;
    }

    const rows = [
      await measure(base, "baseline: static file", "/favicon.svg"),
      await measure(base, "baseline: GET /v1/categories", "/v1/categories"),
      await measure(base, "Explore, first page (HTML)", "/"),
      await measure(base, "Explore, most viewed (HTML)", "/?sort=most_viewed"),
      await measure(base, "Explore, search 'vase' (HTML)", "/?q=vase"),
      await measure(base, "Explore, category + most viewed (HTML)", "/?category=food&sort=most_viewed"),
      await measure(base, "Explore, next page JSON (loader)", "/?index&_data=routes%2F_index"),
      await measure(base, "Explore, page 21 via cursor (JSON)", `/?index&_data=routes%2F_index&cursor=${encodeURIComponent(cursor ?? "")}`),
    ];

    process.stdout.write(`\n${ITEMS} public models, ${RUNS} sequential requests each after 3 warm-up, gzip accepted\n`);
    process.stdout.write(`${"request".padEnd(42)} ${"status".padEnd(7)} ${"median ms".padStart(10)} ${"p95 ms".padStart(8)} ${"bytes".padStart(9)}\n`);
    for (const r of rows) {
      process.stdout.write(
        `${r.label.padEnd(42)} ${r.statuses.padEnd(7)} ${r.median.toFixed(1).padStart(10)} ${r.p95.toFixed(1).padStart(8)} ${String(r.bytes).padStart(9)}\n`,
      );
    }

    // The query plan of the first page, for the record (which index carries it).
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const plan = await client.query(
      `EXPLAIN (ANALYZE, BUFFERS OFF, TIMING OFF, SUMMARY ON) SELECT i.id FROM "Item" i JOIN "User" u ON u.id = i."ownerId"
       WHERE i.visibility = 'public' AND i."unpublishedAt" IS NULL AND i.status = 'ready' AND u."disabledAt" IS NULL
       ORDER BY i."createdAt" DESC, i.id DESC LIMIT 25`,
    );
    await client.end();
    process.stdout.write(`\nplan of the first page's query:\n${plan.rows.map((r) => `  ${r["QUERY PLAN"]}`).join("\n")}\n`);
  } finally {
    await close();
    const { disconnectDb } = await import("~/db.server");
    await disconnectDb().catch(() => {});
    await dropDatabase(name);
    rmSync(storageDir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
