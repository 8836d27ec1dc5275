import { afterEach, describe, expect, it, vi } from "vitest";
import { withTimeout } from "./with-timeout";

afterEach(() => {
  vi.useRealTimers();
});

describe("withTimeout", () => {
  it("passes values and errors through", async () => {
    await expect(withTimeout(Promise.resolve(7), 1000, "late")).resolves.toBe(7);
    await expect(withTimeout(Promise.reject(new Error("boom")), 1000, "late")).rejects.toThrow("boom");
  });
  it("rejects with the message when the promise never settles", async () => {
    vi.useFakeTimers();
    const onTimeout = vi.fn();
    const pending = withTimeout(new Promise(() => undefined), 500, "took too long", onTimeout);
    vi.advanceTimersByTime(500);
    await expect(pending).rejects.toThrow("took too long");
    expect(onTimeout).toHaveBeenCalledOnce();
  });
  it("disables the timeout for non-positive durations", async () => {
    await expect(withTimeout(Promise.resolve("x"), 0, "late")).resolves.toBe("x");
  });
});
