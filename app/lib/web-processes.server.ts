import cluster from "node:cluster";

/** Delay before starting a web process again after `failures` quick deaths in a row: 1 s, doubling, at most 30 s. */
export function replacementDelayMs(failures: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.max(0, failures - 1));
}

/** A web process that served this long before dying starts the count of quick deaths again. */
const HEALTHY_AFTER_MS = 60_000;

/**
 * With WEB_PROCESSES > 1 (docs/deploy.md), the process started as the server forks that many web processes that
 * share its port (node:cluster) and serves nothing itself. One that dies (a crash, the OOM killer, kill -9) is
 * replaced while the others go on answering; SIGTERM and SIGINT are passed on to all of them, and this process
 * exits once they have drained and exited. Returns whether this process is that supervisor (false in a web
 * process, and with one web process: then the caller serves).
 */
export function superviseWebProcesses(count: number, log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): boolean {
  if (count <= 1 || !cluster.isPrimary) return false;
  let stopping = false;
  let quickDeaths = 0;
  const startedAt = new Map<number, number>();
  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker.id, Date.now());
  };
  for (let i = 0; i < count; i++) fork();
  cluster.on("exit", (worker, code, signal) => {
    const ranMs = Date.now() - (startedAt.get(worker.id) ?? Date.now());
    startedAt.delete(worker.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    quickDeaths = ranMs > HEALTHY_AFTER_MS ? 1 : quickDeaths + 1;
    const delay = quickDeaths === 1 ? 0 : replacementDelayMs(quickDeaths - 1);
    log(`[scanroom] web process ${worker.process.pid} exited (${code ?? signal}); starting another${delay ? ` in ${delay / 1000} s` : ""}`);
    setTimeout(() => !stopping && fork(), delay);
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {});
    if (workers.length === 0) process.exit(0);
    for (const worker of workers) worker?.process.kill(signal);
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  return true;
}
