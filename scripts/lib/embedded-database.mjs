// The database a maintenance command (`npm run admin:grant`) works on: DATABASE_URL when set,
// otherwise the embedded PostgreSQL that `npm start` uses (.data/postgres, port SCANROOM_PG_PORT,
// default 54329) — reached where it runs, or started for the command and stopped after it.
import { existsSync } from "node:fs";
import path from "node:path";
import { portIsFree, root, startEmbeddedPostgres } from "./services.mjs";

export const EMBEDDED_PG_DATA = ".data/postgres";
export const EMBEDDED_PG_PORT = 54329;

/** @returns {Promise<{ url: string, stop: () => Promise<void> }>} */
export async function databaseForCommand(environment = process.env) {
  if (environment.DATABASE_URL) return { url: environment.DATABASE_URL, stop: async () => {} };
  const dataDir = environment.SCANROOM_PG_DATA ?? EMBEDDED_PG_DATA;
  const port = Number(environment.SCANROOM_PG_PORT ?? EMBEDDED_PG_PORT);
  if (!existsSync(path.join(path.resolve(root, dataDir), "PG_VERSION"))) {
    throw new Error(`DATABASE_URL is not set and there is no embedded database in ${dataDir} yet: run \`npm start\` once first.`);
  }
  if (!(await portIsFree(port))) {
    // `npm start` is running: its embedded PostgreSQL answers on this port.
    return { url: `postgresql://postgres:postgres@127.0.0.1:${port}/scanroom`, stop: async () => {} };
  }
  const server = await startEmbeddedPostgres({ dataDir, port });
  return { url: server.url, stop: () => server.stop() };
}
