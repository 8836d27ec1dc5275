// The built app for the benches that serve it themselves (explore, storefront): the build folder
// (SCANROOM_BUILD_DIR, default build/), and the app started from it on a free port.
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const buildDir = path.resolve(root, process.env.SCANROOM_BUILD_DIR ?? "build");
const serverBuild = path.join(buildDir, "server/index.js");

/** Ends the process with a hint when there is no build to serve. */
export function exitUnlessBuilt(): void {
  if (!existsSync(serverBuild)) {
    process.stderr.write(`No build in ${buildDir}: run \`npm run build\` first.\n`);
    process.exit(1);
  }
}

/** Listens on a free port (on every interface unless `host` is given) and resolves with the port. */
export function listenOnFreePort(server: Server, host?: string): Promise<number> {
  return new Promise((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));
}

/**
 * Starts the built app (production mode, errors-only logs) against `databaseUrl` and `storageDir` on a free
 * port of `listenHost` (every interface when left out). Its origin, which the app also takes as APP_URL, names
 * `originHost`: a page on another origin of this machine can then frame it as a third-party site.
 */
export async function startBuiltApp({
  databaseUrl,
  storageDir,
  listenHost,
  originHost,
}: {
  databaseUrl: string;
  storageDir: string;
  listenHost?: string;
  originHost: string;
}): Promise<{ origin: string; close: () => Promise<void> }> {
  Object.assign(process.env, { DATABASE_URL: databaseUrl, STORAGE_DIR: storageDir, NODE_ENV: "production", LOG_LEVEL: "error" });
  const http = createServer();
  const origin = `http://${originHost}:${await listenOnFreePort(http, listenHost)}`;
  // Set before the app reads its configuration.
  process.env.APP_URL = origin;
  const { createServerApp } = await import("../server");
  http.on("request", await createServerApp({ buildPath: serverBuild }));
  return { origin, close: () => new Promise((resolve) => http.close(() => resolve())) };
}
