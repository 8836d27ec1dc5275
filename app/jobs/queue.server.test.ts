import { describe, expect, it } from "vitest";
import type PgBoss from "pg-boss";
import { retryOnDeadlock, startPgBoss } from "./queue.server";

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
