import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainServer } from "~/lib/graceful-shutdown.server";
import { startTestServer } from "../setup/test-server";

// Issue 19 item 4: liveness and readiness for a process manager, and a SIGTERM that drains requests.

let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  // The drain test has closed the listener already; close() ends what is left.
  await Promise.race([server?.close(), new Promise((resolve) => setTimeout(resolve, 1_000))]);
  const { stopQueue } = await import("~/jobs/queue.server"); // started by /readyz's queue check
  await stopQueue();
});

/** A POST whose body arrives in two halves: the request is in flight until `finish` sends the rest. */
function slowPost(url: string, path: string, body: string) {
  const half = Math.floor(body.length / 2);
  const { hostname, port } = new URL(url);
  const req = request({ hostname, port, path, method: "POST", headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) } });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on("response", (res) => {
      let text = "";
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
  });
  req.write(body.slice(0, half));
  return { response, finish: () => req.end(body.slice(half)) };
}

describe("health endpoints", () => {
  it("GET /healthz answers 200 while the process runs", async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("GET /readyz answers 200 when the database, the storage and the queue answer", async () => {
    const res = await fetch(`${server.url}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ready", checks: { database: "ok", storage: "ok", queue: "ok" } });
  });

  it("a wrong method on them is 405, not 500", async () => {
    expect((await fetch(`${server.url}/healthz`, { method: "POST" })).status).toBe(405);
    expect((await fetch(`${server.url}/readyz`, { method: "DELETE" })).status).toBe(405);
  });
});

describe("shutdown", () => {
  // Last in this file: draining is for the life of the process.
  it("turns readiness to 503 at once, lets a request in flight finish, then refuses new connections", async () => {
    const inFlight = slowPost(server.url, "/v1/contact", JSON.stringify({ name: "Ada", email: "ada@example.com", message: "x".repeat(200) }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const drained = drainServer(server.server, { delayMs: 1_000, graceMs: 10_000 });

    const during = await fetch(`${server.url}/readyz`);
    expect(during.status).toBe(503);
    expect(await during.json()).toMatchObject({ status: 503, error: "not_ready", message: "This server is shutting down." });

    inFlight.finish();
    const answered = await inFlight.response;
    expect(answered.status).toBeGreaterThanOrEqual(200);
    expect(answered.status).toBeLessThan(500);
    expect(await drained).toBe(true);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });
});
