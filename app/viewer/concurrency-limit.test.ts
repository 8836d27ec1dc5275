import { describe, expect, it } from "vitest";
import { createConcurrencyLimiter } from "./concurrency-limit";

/** A task whose end the test decides. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("createConcurrencyLimiter", () => {
  it("starts at most 3 tasks at once and the rest in order as slots free up", async () => {
    const limiter = createConcurrencyLimiter(3);
    const tasks = Array.from({ length: 7 }, () => deferred<number>());
    const started: number[] = [];
    let running = 0;
    let mostRunning = 0;
    const results = tasks.map((task, index) =>
      limiter.run(async () => {
        started.push(index);
        running++;
        mostRunning = Math.max(mostRunning, running);
        try {
          return await task.promise;
        } finally {
          running--;
        }
      }),
    );
    await flush();
    expect(started).toEqual([0, 1, 2]);
    expect(limiter.waiting).toBe(4);

    tasks[1].resolve(1);
    await flush();
    expect(started).toEqual([0, 1, 2, 3]);

    tasks.forEach((task, index) => task.resolve(index));
    await expect(Promise.all(results)).resolves.toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(mostRunning).toBe(3);
    expect(limiter.active).toBe(0);
  });

  it("frees the slot of a task that fails, and passes its error on", async () => {
    const limiter = createConcurrencyLimiter(1);
    const first = limiter.run(() => Promise.reject(new Error("404")));
    const second = limiter.run(() => {
      throw new Error("factory threw");
    });
    const third = limiter.run(() => Promise.resolve("ok"));
    await expect(first).rejects.toThrow("404");
    await expect(second).rejects.toThrow("factory threw");
    await expect(third).resolves.toBe("ok");
  });

  it("does not start a waiting task before a slot is free", async () => {
    const limiter = createConcurrencyLimiter(1);
    const blocker = deferred<void>();
    void limiter.run(() => blocker.promise);
    let started = false;
    const waiting = limiter.run(async () => {
      started = true;
    });
    await flush();
    expect(started).toBe(false);
    blocker.resolve();
    await waiting;
    expect(started).toBe(true);
  });

  it("rejects limits that are not positive integers", () => {
    expect(() => createConcurrencyLimiter(0)).toThrow();
    expect(() => createConcurrencyLimiter(1.5)).toThrow();
  });
});
