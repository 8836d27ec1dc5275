import pg from "pg";
// A plain ESM module shared with scripts/start.mjs (allowJs).
import { migrate, seed, startAuthEmulator, log } from "../../scripts/lib/services.mjs";
import { startS3Server } from "../../scripts/lib/s3-server.mjs";
import { EMULATOR_PORT, S3_PORT, FIREBASE_PROJECT_ID, TEMPLATE_DATABASE, TEST_PG_ADMIN_URL, databaseUrl } from "./config";

/** Rebuilds the template database (migrated and seeded) that each test file clones. */
export async function prepareTemplateDatabase() {
  const admin = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${TEMPLATE_DATABASE}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${TEMPLATE_DATABASE}"`);
  } finally {
    await admin.end();
  }
  const url = databaseUrl(TEMPLATE_DATABASE);
  await migrate(url);
  await seed(url);
}

/** A fresh database cloned from the template; dropped by `dropDatabase`. */
export async function createDatabaseFromTemplate(name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${TEMPLATE_DATABASE}"`);
  } finally {
    await admin.end();
  }
  return databaseUrl(name);
}

export async function dropDatabase(name: string) {
  const admin = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** What the database's connections are doing (to say why a teardown step waits). */
export async function databaseActivity(name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query(
      `SELECT pid, application_name, state, wait_event_type, wait_event, now() - xact_start AS in_transaction, left(query, 160) AS query
         FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
      [name],
    );
    return rows.length === 0 ? "no connection open" : rows.map((row) => JSON.stringify(row)).join("\n");
  } finally {
    await admin.end();
  }
}

export async function emulatorIsRunning(): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${EMULATOR_PORT}/emulator/v1/projects/${FIREBASE_PROJECT_ID}/config`);
    return res.ok;
  } catch {
    return false;
  }
}

/** Starts the Auth emulator for tests unless one is already running (the test runner shares one). */
export async function ensureAuthEmulator(): Promise<() => Promise<void>> {
  if (await emulatorIsRunning()) return async () => {};
  log(`starting the Firebase Auth emulator on port ${EMULATOR_PORT}`);
  const emulator = await startAuthEmulator({ port: EMULATOR_PORT, projectId: FIREBASE_PROJECT_ID, workDir: `tests/.tmp/emulator-${EMULATOR_PORT}` });
  return emulator.stop;
}

/**
 * Starts the S3 server for tests (s3rver behind our signature-checking edge, scripts/lib/s3-server.mjs)
 * on TEST_S3_PORT or a free port, with a secret key made for this run, unless the runner already
 * started one (TEST_S3_ENDPOINT set). Test files read where it is from `s3TestConfig()`.
 */
export async function ensureS3Server(): Promise<() => Promise<void>> {
  if (process.env.TEST_S3_ENDPOINT) return async () => {};
  const server = await startS3Server({ port: S3_PORT, dir: `tests/.tmp/s3-${process.pid}` });
  log(`S3 server (s3rver behind a SigV4-checking edge) on ${server.endpoint}`);
  // Set before the test workers start: they inherit this environment.
  process.env.TEST_S3_ENDPOINT = server.endpoint;
  process.env.TEST_S3_BUCKET = server.bucket;
  process.env.TEST_S3_ACCESS_KEY_ID = server.accessKeyId;
  process.env.TEST_S3_SECRET_ACCESS_KEY = server.secretAccessKey;
  return server.stop;
}
