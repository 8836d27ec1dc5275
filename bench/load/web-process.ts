// The web process under load: the production server (server.ts on the built app, as `npm run serve` runs it)
// as a child of the bench, so that the bench can kill it with SIGKILL and start it again, and read its memory.
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream } from "node:fs";
import { waitFor } from "../../scripts/lib/services.mjs";
import { root } from "../app-server";

export interface WebProcess {
  readonly pid: number;
  /** SIGKILL, as a crashed machine or an OOM killer would: nothing is drained. */
  kill9(): Promise<void>;
  /** SIGINT: a clean stop. */
  stop(): Promise<void>;
}

/** Resolves once GET /readyz answers 200 (database, object store and queue reachable), within a minute. */
export function waitUntilReady(origin: string): Promise<void> {
  const ready = () => fetch(`${origin}/readyz`).then(async (res) => (await res.arrayBuffer(), res.ok));
  return waitFor(ready, { timeoutMs: 60_000, intervalMs: 50, what: `the web process at ${origin}` });
}

/** Starts `server.ts` on `port` with `env`, its output appended to `logFile`, and waits until it is ready. */
export async function startWebProcess({ port, env, logFile }: { port: number; env: Record<string, string>; logFile: string }): Promise<WebProcess> {
  const log = createWriteStream(logFile, { flags: "a" });
  // LOAD_WEB_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof": a CPU profile of the web process.
  const nodeArgs = (process.env.LOAD_WEB_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, "--import", "tsx", "server.ts"], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.pipe(log, { end: false });
  child.stderr!.pipe(log, { end: false });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const origin = `http://127.0.0.1:${port}`;
  await Promise.race([
    waitUntilReady(origin),
    exited.then(() => {
      throw new Error(`the web process exited while starting (see ${logFile})`);
    }),
  ]);
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
    await exited;
    log.end();
  };
  return {
    pid: child.pid!,
    kill9: () => signal("SIGKILL"),
    stop: () => signal("SIGINT"),
  };
}
