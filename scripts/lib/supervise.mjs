// Keeps a child process running (issue 21): one that exits while the product is not stopping is
// started again after a backoff, with a log line saying so. Used by scripts/start.mjs.
import { spawn } from "node:child_process";
import { clearTimeout, setTimeout } from "node:timers";

/** Delay before restart number `failures` (1-based): 1 s, doubling, at most 30 s. */
export function restartDelayMs(failures, { baseMs = 1000, maxMs = 30_000 } = {}) {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, failures - 1));
}

/**
 * When to start again something that exited on its own: after `restartDelayMs(n)` for its n-th quick exit in a
 * row, n counting from 1 again once it had run longer than `healthyAfterMs`.
 */
export function restartPolicy({ baseMs = 1000, maxMs = 30_000, healthyAfterMs = 60_000 } = {}) {
  let failures = 0;
  return {
    /** After an exit that came `ranMs` after the start: how many quick exits in a row, and the delay. */
    afterExit(ranMs) {
      failures = ranMs > healthyAfterMs ? 1 : failures + 1;
      return { failures, delayMs: restartDelayMs(failures, { baseMs, maxMs }) };
    },
  };
}

/**
 * Starts `command args` and restarts it whenever it exits on its own. A child that ran longer than
 * `healthyAfterMs` before exiting starts the backoff again from the beginning. Returns `stop()`,
 * which ends it (SIGTERM, SIGKILL after `killAfterMs`) and restarts nothing after.
 * An exit is judged `exitGraceMs` after it happens: Ctrl-C in a terminal signals the whole process group, so a
 * child may exit before our own SIGINT handler has called stop() — that exit is the stop, not a crash.
 */
export function superviseChild({
  name,
  command,
  args,
  cwd = process.cwd(),
  env = process.env,
  stdio = "inherit",
  report = (line) => {
    process.stderr.write(`${line}\n`);
  },
  baseMs = 1000,
  maxMs = 30_000,
  healthyAfterMs = 60_000,
  killAfterMs = 10_000,
  exitGraceMs = 300,
  onStart = () => {},
}) {
  let child;
  let restartTimer;
  const policy = restartPolicy({ baseMs, maxMs, healthyAfterMs });
  let stopped = false;
  const launch = () => {
    restartTimer = undefined;
    const startedAt = Date.now();
    child = spawn(command, args, { cwd, stdio, env });
    onStart(child);
    child.on("error", (error) => report(`[scanroom] ${name} could not be started: ${error.message}`));
    child.on("exit", (code, signal) => {
      const ranMs = Date.now() - startedAt;
      restartTimer = setTimeout(() => {
        if (stopped) return;
        const { failures, delayMs: delay } = policy.afterExit(ranMs);
        report(`[scanroom] ${name} exited unexpectedly (${code ?? signal}); restarting it in ${delay / 1000} s (restart ${failures} in a row)`);
        restartTimer = setTimeout(launch, delay);
      }, exitGraceMs);
    });
  };
  launch();
  return {
    get child() {
      return child;
    },
    stop: () =>
      new Promise((resolve) => {
        stopped = true;
        clearTimeout(restartTimer);
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), killAfterMs).unref();
      }),
  };
}
