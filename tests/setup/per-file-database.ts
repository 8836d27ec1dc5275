import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { EMULATOR_HOST, FIREBASE_PROJECT_ID, XOR_KEY } from "./config";
import { createDatabaseFromTemplate, dropDatabase } from "./services";

// Each integration test file gets its own database (cloned from the template) and storage folder,
// set before any app module reads the environment.
const name = `scanroom_t_${randomBytes(6).toString("hex")}`;
process.env.DATABASE_URL = await createDatabaseFromTemplate(name);
process.env.STORAGE_DIR = mkdtempSync(path.join(os.tmpdir(), "scanroom-storage-"));
process.env.FIREBASE_AUTH_EMULATOR_HOST = EMULATOR_HOST;
process.env.FIREBASE_PROJECT_ID = FIREBASE_PROJECT_ID;
process.env.MODEL_XOR_KEY = XOR_KEY;
process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? "error";

afterAll(async () => {
  // Uploads start the app's job queue in this process (e.g. delivery copies of splats): stop it first.
  const { stopQueue } = await import("~/jobs/queue.server");
  await stopQueue();
  const { disconnectDb } = await import("~/db.server");
  await disconnectDb();
  await dropDatabase(name);
});
