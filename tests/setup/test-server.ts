import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * The real built app (build/server, made once by the test runner) served over real HTTP on a free
 * port, against this test file's own database (tests/setup/per-file-database.ts).
 */
export async function startTestServer(): Promise<{ url: string; server: Server; close: () => Promise<void> }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  // Set before the app reads its configuration: signed storage URLs point at this server, and the
  // configured port is the one it listens on (its loopback names are allowed link hosts, docs/decisions/039).
  process.env.APP_URL = url;
  process.env.PORT = String(port);
  const { createServerApp } = await import("../../server");
  const app = await createServerApp();
  server.on("request", app);
  return {
    url,
    server,
    close: async () => {
      // The app's outbox relay stops first (a pass in flight finishes): the file's database goes next.
      const { stopOutboxRelay } = await import("~/jobs/outbox-relay.server");
      await stopOutboxRelay();
      // So is the shared page cache's change listener (decision 057), where the file turned the cache on.
      await (app.locals.stopPageChanges as (() => Promise<void>) | undefined)?.();
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
