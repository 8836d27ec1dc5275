#!/usr/bin/env node
// `npm start`: the whole product on embedded defaults, no account or external service (DESIGN §3).
// Embedded PostgreSQL under .data/postgres, migrations and seed, the Firebase Auth emulator (its
// users kept under .data/firebase), local-disk storage under .data/storage, and the server on :3000.
// Ctrl-C (SIGINT) or SIGTERM stops every child cleanly; starting again keeps all data. A server or
// worker that exits on its own is restarted (with backoff), never taking the rest down with it.
import { existsSync } from "node:fs";
import path from "node:path";
import { superviseChild } from "./lib/supervise.mjs";
import { log, migrate, portIsFree, root, run, seed, startAuthEmulator, startEmbeddedPostgres } from "./lib/services.mjs";

const PORT = Number(process.env.PORT ?? 3000);
const PG_PORT = Number(process.env.SCANROOM_PG_PORT ?? 54329);
const AUTH_PORT = Number(process.env.SCANROOM_AUTH_PORT ?? 9099);
const PROJECT_ID = "demo-scanroom";
const rebuild = process.argv.includes("--rebuild");

const stops = [];
let stopping = false;

async function shutdown(code = 0) {
  if (stopping) return;
  stopping = true;
  log("stopping…");
  for (const stop of stops.reverse()) {
    try {
      await stop();
    } catch (error) {
      process.stderr.write(`[scanroom] while stopping: ${error.message}\n`);
    }
  }
  log("stopped");
  process.exit(code);
}
process.on("SIGINT", () => shutdown(0));
process.on("SIGTERM", () => shutdown(0));

function startChild(name, command, args, env) {
  const supervised = superviseChild({ name, command, args, cwd: root, env: { ...process.env, ...env } });
  stops.push(supervised.stop);
}

async function main() {
  if (!(await portIsFree(PORT, "0.0.0.0"))) throw new Error(`port ${PORT} is in use: stop the other server or set PORT`);

  const buildExists = existsSync(path.join(root, "build/server/index.js"));
  if (rebuild || !buildExists) {
    log("building the app (first start only; `npm start -- --rebuild` rebuilds)");
    await run("npm", ["run", "--silent", "build"]);
  }

  // The reconstruction engine (native/): incremental, seconds when built. Without it the site still
  // runs and the worker says scans are unavailable.
  try {
    await run("node", ["scripts/build-native.mjs"]);
  } catch (error) {
    process.stderr.write(`[scanroom] the reconstruction engine could not be built (${error.message}); scans will be unavailable until it is\n`);
  }

  const external = process.env.DATABASE_URL;
  let databaseUrl = external;
  if (!external) {
    log(`starting embedded PostgreSQL on port ${PG_PORT} (data in .data/postgres)`);
    const pg = await startEmbeddedPostgres({ dataDir: ".data/postgres", port: PG_PORT });
    stops.push(pg.stop);
    databaseUrl = pg.url;
  }
  log("applying migrations and seed data");
  await migrate(databaseUrl);
  await seed(databaseUrl);

  let emulatorHost = process.env.FIREBASE_AUTH_EMULATOR_HOST;
  if (!emulatorHost && process.env.SCANROOM_PROFILE !== "production") {
    log(`starting the Firebase Auth emulator on port ${AUTH_PORT}`);
    const emulator = await startAuthEmulator({
      port: AUTH_PORT,
      projectId: PROJECT_ID,
      workDir: ".data/firebase",
      persistDir: ".data/firebase/export",
    });
    stops.push(emulator.stop);
    emulatorHost = emulator.host;
  }

  const childEnv = {
    NODE_ENV: "production",
    PORT: String(PORT),
    DATABASE_URL: databaseUrl,
    ...(emulatorHost ? { FIREBASE_AUTH_EMULATOR_HOST: emulatorHost, FIREBASE_PROJECT_ID: process.env.FIREBASE_PROJECT_ID ?? PROJECT_ID } : {}),
  };
  startChild("server", path.join(root, "node_modules/.bin/tsx"), ["server.ts"], childEnv);
  // The scan worker (`npm run worker`), with the same database and storage (docs/scan-worker.md).
  startChild("worker", path.join(root, "node_modules/.bin/tsx"), ["app/worker/main.ts"], childEnv);
  log(`ready: http://localhost:${PORT}  (Ctrl-C stops everything)`);
}

main().catch(async (error) => {
  process.stderr.write(`[scanroom] could not start: ${error.message}\n`);
  await shutdown(1);
});
