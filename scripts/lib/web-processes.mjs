// WEB_PROCESSES > 1 (docs/deploy.md): the process started as the server forks that many web processes sharing its
// port (node:cluster) and serves nothing itself. One that dies (a crash, the OOM killer, kill -9) is started again
// by the same policy as scripts/start.mjs's children (supervise.mjs) while the others go on answering; SIGTERM and
// SIGINT are passed on to all of them, and this process exits once they have drained and exited.
import cluster from "node:cluster";
import { restartPolicy } from "./supervise.mjs";

/** The mark of a message a web process sends to all the others (`siblingChannel`), which the supervisor passes on. */
const TO_SIBLINGS = "scanroom:to-siblings";

/**
 * What this web process tells the other web processes on its port, and hears from them, on `topic`: through the
 * supervisor, which passes each message on to every other web process. Null where there are none (one web
 * process, or a process that is not one of several).
 * @template T
 * @param {string} topic
 * @returns {{ send: (body: T) => void, listen: (receive: (body: T) => void) => void } | null}
 */
export function siblingChannel(topic) {
  if (!cluster.isWorker || !process.send) return null;
  return {
    // With a callback, a closed channel (the supervisor gone) is an error passed to it, not an 'error' event that would end this process.
    send: (body) => void process.send?.({ [TO_SIBLINGS]: topic, body }, undefined, {}, () => {}),
    listen: (receive) =>
      void process.on("message", (message) => {
        if (message && typeof message === "object" && message[TO_SIBLINGS] === topic) receive(message.body);
      }),
  };
}

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
  // Structured clone, not JSON, for what web processes tell each other (rendered pages: long strings).
  cluster.setupPrimary({ serialization: "advanced" });
  cluster.on("message", (from, message) => {
    if (!message || typeof message !== "object" || !(TO_SIBLINGS in message)) return;
    for (const worker of Object.values(cluster.workers ?? {})) {
      // A web process that exits meanwhile misses it (the callback takes the error instead of an 'error' event).
      if (worker && worker !== from && worker.isConnected()) worker.send(message, undefined, {}, () => {});
    }
  });
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
