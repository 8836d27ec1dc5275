import { describe, expect, it } from "vitest";
import { restartDelayMs, restartPolicy, superviseChild } from "./supervise.mjs";

const until = async (check: () => boolean, timeoutMs = 10_000) => {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe("restartDelayMs", () => {
  it("doubles from 1 s up to 30 s", () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => restartDelayMs(n))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });
});

describe("restartPolicy", () => {
  it("backs off on quick exits in a row and starts over after a healthy run", () => {
    const policy = restartPolicy({ healthyAfterMs: 60_000 });
    expect([100, 100, 100].map((ran) => policy.afterExit(ran).delayMs)).toEqual([1000, 2000, 4000]);
    expect(policy.afterExit(120_000)).toEqual({ failures: 1, delayMs: 1000 });
  });
});

/** superviseChild on `node -e script` with fast restarts, its report lines and start count collected. */
function supervise(name: string, script: string, options: { exitGraceMs?: number } = {}) {
  const lines: string[] = [];
  const counts = { starts: 0 };
  const supervised = superviseChild({
    name,
    command: process.execPath,
    args: ["-e", script],
    stdio: "ignore",
    report: (line: string) => {
      lines.push(line);
    },
    baseMs: 10,
    ...options,
    onStart: () => {
      counts.starts++;
    },
  });
  return { supervised, lines, counts };
}

describe("superviseChild (npm start's supervision, issue 21)", () => {
  it("restarts a child that exits on its own, saying so, with growing delays", async () => {
    const { supervised, lines, counts } = supervise("server", "process.exit(3)");
    await until(() => counts.starts >= 3);
    await supervised.stop();
    expect(lines[0]).toBe("[scanroom] server exited unexpectedly (3); restarting it in 0.01 s (restart 1 in a row)");
    expect(lines[1]).toBe("[scanroom] server exited unexpectedly (3); restarting it in 0.02 s (restart 2 in a row)");
  });

  it("takes an exit followed at once by stop() as the stop (Ctrl-C reaches the child first): no restart, no line", async () => {
    const { supervised, lines, counts } = supervise("server", "process.on('SIGINT', () => process.exit(0)); setInterval(() => {}, 1000)", { exitGraceMs: 200 });
    await until(() => supervised.child.pid !== undefined);
    await new Promise((resolve) => setTimeout(resolve, 200)); // its SIGINT handler is in place
    const child = supervised.child;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGINT");
    await exited;
    await supervised.stop(); // the supervisor's own handler, a moment later
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(lines).toEqual([]);
    expect(counts.starts).toBe(1);
  });

  it("restarts a child killed by a signal, and stop() ends it for good", async () => {
    const { supervised, lines, counts } = supervise("worker", "setInterval(() => {}, 1000)");
    await until(() => supervised.child.pid !== undefined);
    supervised.child.kill("SIGKILL");
    await until(() => counts.starts === 2);
    expect(lines).toEqual(["[scanroom] worker exited unexpectedly (SIGKILL); restarting it in 0.01 s (restart 1 in a row)"]);
    const last = supervised.child;
    await supervised.stop();
    expect(last.signalCode).toBe("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(counts.starts).toBe(2);
    expect(lines).toHaveLength(1);
  });
});
