// The app as end-to-end tests use it: the built server on port 3100 against its own database cloned
// from the test template, its own storage folder, and the test Auth emulator. Playwright starts this
// once per run (webServer) and stops it with SIGTERM.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { EMULATOR_HOST, FIREBASE_PROJECT_ID, TEMPLATE_DATABASE, XOR_KEY } from "../setup/config";
import { createDatabaseFromTemplate, dropDatabase, ensureAuthEmulator, prepareTemplateDatabase } from "../setup/services";
import { SHOPIFY_E2E_ENV } from "./shopify-fake-admin";
import { startFakeStripe } from "../setup/fake-stripe";
import pg from "pg";
import { TEST_PG_ADMIN_URL } from "../setup/config";

const PORT = Number(process.env.E2E_PORT ?? 3100);
const DATABASE = `scanroom_e2e_${PORT}`;

async function templateExists() {
  const client = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
  await client.connect();
  try {
    return (await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [TEMPLATE_DATABASE])).rowCount === 1;
  } finally {
    await client.end();
  }
}

if (process.env.SCANROOM_TEMPLATE_READY !== "1" || !(await templateExists())) await prepareTemplateDatabase();
const stopEmulator = await ensureAuthEmulator();
const storageDir = mkdtempSync(path.join(os.tmpdir(), "scanroom-e2e-storage-"));
// Stripe faked at the network edge (tests/setup/fake-stripe.ts): its hosted checkout page sends the
// signed webhooks to this server, then returns the browser to the success URL.
const fakeStripe = await startFakeStripe({ webhookUrl: `http://localhost:${PORT}/webhooks/stripe` });
Object.assign(process.env, {
  DATABASE_URL: await createDatabaseFromTemplate(DATABASE),
  STORAGE_DIR: storageDir,
  FIREBASE_AUTH_EMULATOR_HOST: EMULATOR_HOST,
  FIREBASE_PROJECT_ID,
  MODEL_XOR_KEY: XOR_KEY,
  APP_URL: `http://localhost:${PORT}`,
  // The port the server listens on: the loopback names of it are allowed link origins (docs/decisions/039).
  PORT: String(PORT),
  // The Shopify app's test credentials, and its Admin API calls sent to the spec's fake (tests/e2e/shopify-fake-admin.ts).
  SHOPIFY_APP_URL: `http://localhost:${PORT}`,
  ...SHOPIFY_E2E_ENV,
  STRIPE_SECRET_KEY: fakeStripe.secretKey,
  STRIPE_WEBHOOK_SECRET: fakeStripe.webhookSecret,
  STRIPE_API_BASE: fakeStripe.url,
  NODE_ENV: "production",
  LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
  // Signed-out pages would be up to 10 s old (decision 045); the specs check what a change does at once. The
  // cache is tested in tests/integration/shared-page-cache.test.ts and measured by `npm run bench load`.
  SHARED_PAGE_CACHE_MB: "0",
});

const { createServerApp } = await import("../../server");
const app = await createServerApp();
// Loaded now, not at shutdown: on SIGTERM tsx's compiler may already be gone with the process group.
const { disconnectDb } = await import("~/db.server");
const { stopQueue } = await import("~/jobs/queue.server");
const server = app.listen(PORT, () => process.stdout.write(`[e2e] serving http://localhost:${PORT}\n`));

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  server.closeAllConnections();
  server.close();
  await stopEmulator();
  await fakeStripe.close().catch(() => {});
  await stopQueue().catch(() => {}); // before the database goes, so pg-boss does not log its connections cut
  await disconnectDb().catch(() => {});
  await dropDatabase(DATABASE).catch(() => {});
  rmSync(storageDir, { recursive: true, force: true });
  process.exit(0);
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
