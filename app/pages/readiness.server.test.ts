import { afterEach, describe, expect, it } from "vitest";
import { checkReadiness } from "./readiness.server";

const ok = () => Promise.resolve();
const never = () => new Promise<void>(() => undefined);
const refused = () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:5432"));

describe("checkReadiness", () => {
  afterEach(() => {
    delete (globalThis as { __scanroomDraining?: boolean }).__scanroomDraining;
  });

  it("is ready when every dependency answers", async () => {
    expect(await checkReadiness({ database: ok, storage: ok, queue: ok }, 100)).toEqual({
      ready: true,
      draining: false,
      checks: { database: "ok", storage: "ok", queue: "ok" },
    });
  });

  it("names a dependency that refuses and one that does not answer in time, without their error text", async () => {
    const result = await checkReadiness({ database: refused, storage: ok, queue: never }, 50);
    expect(result.ready).toBe(false);
    expect(result.checks).toEqual({ database: "unreachable", storage: "ok", queue: "timeout" });
  });

  it("is not ready while draining, even with every dependency up", async () => {
    (await import("~/lib/draining")).markDraining();
    expect(await checkReadiness({ database: ok, storage: ok, queue: ok }, 100)).toMatchObject({ ready: false, draining: true });
  });
});
