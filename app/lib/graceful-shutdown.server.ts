// How the web process stops on SIGTERM (issue 19 item 4, docs/deploy.md): readiness turns to 503 at
// once so a load balancer stops sending; after `delayMs` (the balancer's time to notice) the server stops
// accepting connections, closes idle keep-alive ones and lets requests in flight finish; whatever is
// still open after `graceMs` is cut so the process can exit inside the process manager's own limit.
import type { Server } from "node:http";
import { markDraining } from "./draining";
import type { HandedConnections } from "./handed-connections.server";

export interface DrainOptions {
  /** Time between readiness turning 503 and the listener closing. */
  delayMs: number;
  /** Time after the listener closed that requests in flight may still take. */
  graceMs: number;
  /** A server that never listened but was handed its connections by the supervisor: they, not the listener, are waited for. */
  handed?: HandedConnections | null;
}

/** Resolves `true` when every request finished by itself, `false` when some were cut at the grace limit. */
export async function drainServer(server: Server, { delayMs, graceMs, handed }: DrainOptions): Promise<boolean> {
  markDraining();
  if (delayMs > 0) await new Promise<void>((resolve) => setTimeout(resolve, delayMs));
  // A keep-alive connection that sends another request gets its answer and is then closed.
  server.on("request", (_req, res) => {
    if (!res.headersSent) res.setHeader("Connection", "close");
  });
  return new Promise<boolean>((resolve) => {
    const cut = setTimeout(() => {
      server.closeAllConnections();
      resolve(false);
    }, graceMs);
    const finished = () => {
      clearTimeout(cut);
      resolve(true);
    };
    if (handed) void handed.allClosed().then(finished);
    else server.close(finished);
    server.closeIdleConnections();
  });
}
