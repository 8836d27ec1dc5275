import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate, portIsFree, root, startEmbeddedPostgres } from "./lib/services.mjs";

// Issue 17 item 3: `npm run admin:grant -- <email>` as README gives it (no DATABASE_URL) works on
// the embedded database of `npm start`, both while it runs and when it is stopped.

const run = promisify(execFile);
let dataDir: string;
let port: number;
let stopServer: (() => Promise<void>) | undefined;

async function freePort() {
  for (let candidate = 55_400 + Math.floor(Math.random() * 500); ; candidate += 1) {
    if (await portIsFree(candidate)) return candidate;
  }
}

async function query<T extends pg.QueryResultRow>(sql: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: `postgresql://postgres:postgres@127.0.0.1:${port}/scanroom` });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/** `npm run admin:grant -- <email>` with the environment a newcomer has: no DATABASE_URL. */
async function grant(email: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, SCANROOM_PG_DATA: dataDir, SCANROOM_PG_PORT: String(port) };
  delete env.DATABASE_URL;
  return run("npm", ["run", "--silent", "admin:grant", "--", email], { cwd: root, env }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

async function isAdmin(email: string) {
  const rows = await query<{ isAdmin: boolean }>(`SELECT "isAdmin" FROM "User" WHERE email = $1`, [email]);
  return rows[0]?.isAdmin;
}

beforeAll(async () => {
  await mkdir(path.join(root, "tests/.tmp"), { recursive: true });
  dataDir = await mkdtemp(path.join(root, "tests/.tmp/embedded-pg-"));
  port = await freePort();
  const server = await startEmbeddedPostgres({ dataDir, port });
  stopServer = server.stop;
  await migrate(server.url);
  for (const [uid, email] of [["uid-ada", "ada@example.com"], ["uid-bob", "bob@example.com"]]) {
    await query(`INSERT INTO "User" (id, "firebaseUid", email, "emailVerified", "updatedAt") VALUES (gen_random_uuid(), $1, $2, true, now())`, [uid, email]);
  }
}, 180_000);

afterAll(async () => {
  await stopServer?.();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe("npm run admin:grant without DATABASE_URL", () => {
  it("grants on the embedded database while npm start runs it", async () => {
    const result = await grant("ADA@example.com");
    expect(result.stderr).not.toContain("DATABASE_URL");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("is now an admin");
    expect(await isAdmin("ada@example.com")).toBe(true);
    expect(await isAdmin("bob@example.com")).toBe(false);
  }, 120_000);

  it("starts the stopped embedded database for the command, and stops it after", async () => {
    await stopServer?.();
    stopServer = undefined;
    const result = await grant("bob@example.com");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("bob@example.com is now an admin");
    expect(await portIsFree(port)).toBe(true);
    const server = await startEmbeddedPostgres({ dataDir, port });
    stopServer = server.stop;
    expect(await isAdmin("bob@example.com")).toBe(true);
  }, 120_000);

  it("says which account is missing, and changes nothing", async () => {
    const result = await grant("nobody@example.com");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("No account with the email nobody@example.com");
  }, 120_000);
});
