// WEB_PROCESSES > 1 (docs/deploy.md): the process started as the server forks that many web processes sharing its
// port (node:cluster) and serves nothing itself. One that dies (a crash, the OOM killer, kill -9) is started again
// by the same policy as scripts/start.mjs's children (supervise.mjs) while the others go on answering; SIGTERM and
// SIGINT are passed on to all of them, and this process exits once they have drained and exited.
import cluster from "node:cluster";
import { restartPolicy } from "./supervise.mjs";

/**
 * Supervises `count` web processes when `count` > 1 and this is the primary process; returns whether it does
 * (false in a web process, and with one web process: then the caller serves).
 * @param {number} count
 * @param {(line: string) => void} [log]
 * @returns {boolean}
 */
export function superviseWebProcesses(count, log = (line) => process.stderr.write(`${line}\n`)) {
  if (count <= 1 || !cluster.isPrimary) return false;
  const policy = restartPolicy();
  const startedAt = new Map();
  let stopping = false;
  const fork = () => startedAt.set(cluster.fork().id, Date.now());
  for (let i = 0; i < count; i++) fork();
  cluster.on("exit", (worker, code, signal) => {
    const ranMs = Date.now() - (startedAt.get(worker.id) ?? Date.now());
    startedAt.delete(worker.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    const { delayMs } = policy.afterExit(ranMs);
    log(`[scanroom] web process ${worker.process.pid} exited (${code ?? signal}); starting another in ${delayMs / 1000} s`);
    setTimeout(() => !stopping && fork(), delayMs);
  });
  const stop = (signal) => {
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
