import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { EMULATOR_HOST, FIREBASE_PROJECT_ID, XOR_KEY } from "./config";
import { createDatabaseFromTemplate, databaseActivity, dropDatabase } from "./services";

// Each integration test file gets its own database (cloned from the template) and storage folder,
// set before any app module reads the environment.
const name = `scanroom_t_${randomBytes(6).toString("hex")}`;
process.env.DATABASE_URL = await createDatabaseFromTemplate(name);
process.env.STORAGE_DIR = mkdtempSync(path.join(os.tmpdir(), "scanroom-storage-"));
process.env.FIREBASE_AUTH_EMULATOR_HOST = EMULATOR_HOST;
process.env.FIREBASE_PROJECT_ID = FIREBASE_PROJECT_ID;
process.env.MODEL_XOR_KEY = XOR_KEY;
process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? "error";
// The shared page cache (decision 045) is a CDN's job done in the web process: signed-out pages may be up to 10 s
// old. Test files check what a change does at once, so it is off here; tests/integration/shared-page-cache.test.ts
// turns it on and tests it.
process.env.SHARED_PAGE_CACHE_MB = "0";

afterAll(async () => {
  // Uploads start the app's job queue in this process (e.g. delivery copies of splats): stop it first.
  const { stopQueue } = await import("~/jobs/queue.server");
  const { disconnectDb } = await import("~/db.server");
  await boundedStep("stopping the job queue", stopQueue);
  await boundedStep("closing the database pool", disconnectDb);
  // FORCE ends any connection a step above left open, so the drop itself cannot wait on one.
  await dropDatabase(name);
});

const STEP_LIMIT_MS = 30_000;

/**
 * Runs a teardown step, waiting at most STEP_LIMIT_MS: a connection still busy when a file ends (a request
 * the test did not wait for) would otherwise hold the file's hook until vitest's hook timeout. Every test
 * has already passed or failed by then, so a step that waits too long is reported with what the file's
 * connections are doing, and the database is dropped anyway.
 */
async function boundedStep(label: string, step: () => Promise<void>) {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<"timed out">((resolve) => (timer = setTimeout(() => resolve("timed out"), STEP_LIMIT_MS)));
  const outcome = await Promise.race([step().then(() => "done" as const), timedOut]);
  clearTimeout(timer);
  if (outcome === "timed out") {
    console.warn(`[teardown] ${label} took over ${STEP_LIMIT_MS / 1000} s; the database's connections:\n${await databaseActivity(name)}`);
  }
}
