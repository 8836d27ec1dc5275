import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { readdirSync, readFileSync } from "node:fs";

/**
 * The processes `pid` started that run server.ts (Linux /proc): the web processes of a server started with
 * WEB_PROCESSES > 1 (or, for tsx's own process, the server it runs) — not, say, the esbuild service tsx starts.
 */
export function serverChildPids(pid: number): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (parent === pid && readFileSync(`/proc/${name}/cmdline`, "utf8").includes("server.ts")) pids.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
