import { spawn, type ChildProcess } from "node:child_process";
import { get as httpGet } from "node:http";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { replacementDelayMs } from "~/lib/web-processes.server";
import { serverChildPids } from "../setup/processes";

// Issue 37: with WEB_PROCESSES=2 the server is two web processes on one port; one killed with SIGKILL is
// replaced while the other goes on answering, and a SIGTERM stops them all.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    }
  }
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A GET on a connection of its own (no keep-alive): the status. */
function getStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    httpGet(url, { agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    }).on("error", reject);
  });
}

async function waitFor<T>(check: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 90_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("several web processes on one port", () => {
  it("waits longer before replacing a web process that keeps dying at once", () => {
    expect([1, 2, 3, 6, 10].map(replacementDelayMs)).toEqual([1000, 2000, 4000, 30_000, 30_000]);
  });

  it("keeps answering while one of them is killed -9 and replaced, and stops them all on SIGTERM", async () => {
    const port = await freePort();
    const site = `http://127.0.0.1:${port}`;
    const server = spawn(path.join(root, "node_modules/.bin/tsx"), ["server.ts"], {
      cwd: root,
      env: { ...process.env, NODE_ENV: "production", PORT: String(port), APP_URL: site, WEB_PROCESSES: "2" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(server);
    let output = "";
    server.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    server.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    // tsx runs server.ts in a node process of its own: the supervisor is tsx's child.
    const supervisor = await waitFor(() => serverChildPids(server.pid!)[0], "the supervisor");
    const [first, second] = await waitFor(() => {
      const pids = serverChildPids(supervisor);
      return pids.length === 2 && (output.match(/serving http/g) ?? []).length === 2 ? pids : undefined;
    }, "two web processes serving");
    expect(first).not.toBe(second);

    // Once the supervisor knows the first web process was killed, requests (each on a new connection) one after
    // another until its replacement serves: every one answered 200 by the web process left.
    process.kill(first, "SIGKILL");
    await waitFor(() => (output.includes(`web process ${first} exited (SIGKILL); starting another`) ? true : undefined), "the supervisor's notice");
    let answered = 0;
    const statuses = new Set<number>();
    let replaced: number[] = [];
    await waitFor(async () => {
      statuses.add(await getStatus(`${site}/healthz`));
      answered++;
      replaced = serverChildPids(supervisor).filter((pid) => pid !== first && pid !== second);
      return replaced.length === 1 && (output.match(/serving http/g) ?? []).length === 3 ? true : undefined;
    }, "a replacement web process");
    expect([...statuses]).toEqual([200]);
    process.stdout.write(`${answered} requests answered 200 while web process ${first} was killed and replaced by ${replaced[0]}\n`);

    // SIGTERM to the supervisor: both web processes drain and exit, then the supervisor.
    const exited = new Promise<number | null>((resolve) => server.once("exit", (code) => resolve(code)));
    process.kill(supervisor, "SIGTERM");
    expect(await exited).toBe(0);
    expect(serverChildPids(supervisor)).toEqual([]);
  });
});
