import { describe, expect, it } from "vitest";
import type PgBoss from "pg-boss";
import { consumeQueue, retryOnDeadlock, startPgBoss } from "./queue.server";

describe("retryOnDeadlock", () => {
  it("runs an idempotent statement again after PostgreSQL chose it as a deadlock victim", async () => {
    let calls = 0;
    const result = await retryOnDeadlock(async () => {
      calls++;
      if (calls < 3) throw new Error("deadlock detected");
      return "created";
    });
    expect(result).toBe("created");
    expect(calls).toBe(3);
  });

  it("gives up after its attempts, and never retries other errors", async () => {
    let calls = 0;
    await expect(retryOnDeadlock(async () => (calls++, Promise.reject(new Error("deadlock detected"))), 2)).rejects.toThrow("deadlock");
    expect(calls).toBe(2);
    calls = 0;
    await expect(retryOnDeadlock(async () => (calls++, Promise.reject(new Error("relation does not exist"))))).rejects.toThrow("relation");
    expect(calls).toBe(1);
  });
});

describe("startPgBoss", () => {
  it("starts again on a fresh instance when the start or the setup was a deadlock victim, stopping the failed one", async () => {
    const made: Array<{ started: number; stopped: number; setUp: number }> = [];
    const create = () => {
      const state = { started: 0, stopped: 0, setUp: 0 };
      made.push(state);
      const attempt = made.length;
      return {
        on: () => undefined,
        start: async () => {
          state.started++;
          if (attempt === 1) throw new Error("deadlock detected");
        },
        stop: async () => {
          state.stopped++;
        },
        attempt,
      } as unknown as PgBoss;
    };
    const boss = await startPgBoss({ connectionString: "postgres://unused" }, "test queue", async (started) => {
      const attempt = (started as unknown as { attempt: number }).attempt;
      made[attempt - 1].setUp++;
      if (attempt === 2) throw new Error("deadlock detected");
    }, create);
    expect((boss as unknown as { attempt: number }).attempt).toBe(3);
    expect(made).toEqual([
      { started: 1, stopped: 1, setUp: 0 },
      { started: 1, stopped: 1, setUp: 1 },
      { started: 1, stopped: 0, setUp: 1 },
    ]);
  });

  it("does not retry other failures", async () => {
    let made = 0;
    const create = () => {
      made++;
      return { on: () => undefined, start: async () => Promise.reject(new Error("password authentication failed")), stop: async () => undefined } as unknown as PgBoss;
    };
    await expect(startPgBoss({ connectionString: "postgres://unused" }, "test queue", undefined, create)).rejects.toThrow("password");
    expect(made).toBe(1);
  });
});

describe("consumeQueue", () => {
  /** A queue instance that records work() registrations and can fail the next one. */
  function fakeBoss() {
    const handlers = new Map<string, Array<(jobs: Array<{ data: unknown }>) => Promise<void>>>();
    let failNext = false;
    const boss = {
      async work(name: string, _options: unknown, handler: (jobs: Array<{ data: unknown }>) => Promise<void>) {
        if (failNext) {
          failNext = false;
          throw new Error("connection lost");
        }
        handlers.set(name, [...(handlers.get(name) ?? []), handler]);
        return "worker-id";
      },
    };
    return { boss: boss as unknown as PgBoss, handlers, failNextWork: () => (failNext = true) };
  }

  it("works each queue once per instance and hands every job's data to the handler", async () => {
    const { boss, handlers } = fakeBoss();
    const seen: unknown[] = [];
    await consumeQueue("a", async (data) => void seen.push(data), boss);
    await consumeQueue("a", async () => void seen.push("second handler"), boss);
    await consumeQueue("b", async () => undefined, boss);
    expect(handlers.get("a")).toHaveLength(1);
    expect(handlers.get("b")).toHaveLength(1);
    await handlers.get("a")![0]([{ data: { itemId: "x" } }]);
    expect(seen).toEqual([{ itemId: "x" }]);
    // Another instance (a new queue after a restart) consumes again.
    const other = fakeBoss();
    await consumeQueue("a", async () => undefined, other.boss);
    expect(other.handlers.get("a")).toHaveLength(1);
  });

  it("lets a failed registration be tried again", async () => {
    const { boss, handlers, failNextWork } = fakeBoss();
    failNextWork();
    await expect(consumeQueue("a", async () => undefined, boss)).rejects.toThrow("connection lost");
    await consumeQueue("a", async () => undefined, boss);
    expect(handlers.get("a")).toHaveLength(1);
  });
});
