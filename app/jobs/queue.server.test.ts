import { describe, expect, it } from "vitest";
import { retryOnDeadlock } from "./queue.server";

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
