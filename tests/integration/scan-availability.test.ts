import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../setup/api";
import { createIdentity, type TestIdentity } from "../setup/firebase-users";
import { freePort } from "../setup/processes";
import { startTestServer } from "../setup/test-server";
import { waitFor } from "../setup/wait-for";

// Issue 17 item 1: without the scan tools the product keeps running and says plainly that scans are
// unavailable; a scan request is refused with 503 and nothing is reserved.

const root = path.resolve(import.meta.dirname, "../..");
const NOWHERE = "/nonexistent/scanroom-tools";
// This machine's own check (used while no worker has reported) must find COLMAP missing.
process.env.COLMAP_BIN = `${NOWHERE}/colmap`;

let server: Awaited<ReturnType<typeof startTestServer>>;
let api: ReturnType<typeof apiClient>;
let alice: TestIdentity;

beforeAll(async () => {
  server = await startTestServer();
  api = apiClient(server.url);
  alice = await createIdentity({ name: "Alice" });
});

afterAll(async () => {
  await server?.close();
});

async function db() {
  return (await import("~/db.server")).db();
}

async function imageItem(): Promise<{ itemId: string; folder: string }> {
  const created = await api("POST", "/item", { token: alice.idToken, body: { model_type: "ply", upload_type: "image" } });
  expect(created.status).toBe(200);
  const folder = await api("GET", `/upload/image/${created.json.data.item_id}`, { token: alice.idToken });
  return { itemId: created.json.data.item_id, folder: folder.json.data.path };
}

const quotas = async () => (await api("GET", "/user/quotas", { token: alice.idToken })).json.data.total_scan_credit as number;

describe("scan requests when the scan tools are missing", () => {
  it("with no worker reporting, this machine's own check refuses: 503 scans_unavailable, no credit reserved, item kept", async () => {
    await (await db()).scanWorker.deleteMany();
    const { itemId, folder } = await imageItem();
    const before = await quotas();
    const res = await api("POST", `/scan/image/${itemId}`, { token: alice.idToken, body: { input_bucket_path: folder } });
    expect(res.status).toBe(503);
    expect(res.json).toMatchObject({ status: 503, error: "scans_unavailable" });
    expect(res.json.message).toMatch(/^Scans are unavailable on this server: .*colmap/);
    expect(await quotas()).toBe(before);
    expect(await (await db()).scanJob.count({ where: { itemId } })).toBe(0);
    const item = await api("GET", `/item/${itemId}`, { token: alice.idToken });
    expect(item.json.data.status ?? item.json.data.item?.status).toBe("uploading");

    const availability = await api("GET", "/scan/availability");
    expect(availability.status).toBe(200);
    expect(availability.json.data).toMatchObject({ available: false });
    expect(availability.json.data.missing).toContain("colmap");
  });

  it("a fresh report from a worker with every tool makes scans available (the request goes on to its own checks)", async () => {
    await (await db()).scanWorker.create({ data: { id: "test-worker-ready", hostname: "elsewhere", missingTools: [] } });
    expect((await api("GET", "/scan/availability")).json.data).toEqual({ available: true, missing: [], message: null });
    const { itemId, folder } = await imageItem();
    const res = await api("POST", `/scan/image/${itemId}`, { token: alice.idToken, body: { input_bucket_path: folder } });
    expect(res.status).toBe(400); // no photos uploaded: past the availability gate
    await (await db()).scanWorker.deleteMany();
  });

  it("fresh reports only from workers lacking tools refuse, naming what they lack; stale reports are ignored", async () => {
    const now = Date.now();
    await (await db()).scanWorker.createMany({
      data: [
        { id: "w-without-ffmpeg", hostname: "a", missingTools: ["ffmpeg"] },
        { id: "w-gone", hostname: "b", missingTools: [], reportedAt: new Date(now - 10 * 60 * 1000) },
      ],
    });
    const availability = (await api("GET", "/scan/availability")).json.data;
    expect(availability).toMatchObject({ available: false, missing: ["ffmpeg"] });
    await (await db()).scanWorker.deleteMany();
  });
});

/** A PATH that finds node (tsx needs it) and nothing else: no ffmpeg, ffprobe or COLMAP. */
function pathWithOnlyNode(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "scanroom-path-"));
  symlinkSync(process.execPath, path.join(dir, "node"));
  return dir;
}


function startProcess(args: string[], env: NodeJS.ProcessEnv) {
  const child: ChildProcess = spawn(path.join(root, "node_modules/.bin/tsx"), args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}


describe("the product started as npm start does, with the scan tools unreachable", () => {
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
    }
  });

  it("keeps the server and the worker running; the worker says what is missing and the site says scans are unavailable", async () => {
    await (await db()).scanWorker.deleteMany();
    const port = await freePort();
    // The children of scripts/start.mjs, with its environment, on a PATH without ffmpeg or COLMAP.
    const env = {
      ...process.env,
      NODE_ENV: "production" as const,
      PORT: String(port),
      APP_URL: `http://localhost:${port}`,
      PATH: pathWithOnlyNode(),
      FFMPEG_BIN: "ffmpeg",
      FFPROBE_BIN: "ffprobe",
      COLMAP_BIN: "colmap",
      SCANROOM_NATIVE_BIN: NOWHERE,
    };
    const web = startProcess(["server.ts"], env);
    const worker = startProcess(["app/worker/main.ts"], env);
    children.push(web.child, worker.child);

    await waitFor("the worker's message", () => worker.output().includes("sr-train is not built"), 60_000, 200);
    expect(worker.output()).toMatch(/scans are unavailable on this machine; waiting for the scan tools/);
    expect(worker.output()).toMatch(/ffmpeg \(ffmpeg\) was not found/);
    expect(worker.output()).toMatch(/colmap \(colmap\) was not found/);
    expect(worker.output()).toMatch(/sr-stereo is not built/);

    const site = `http://127.0.0.1:${port}`;
    const home = await waitFor("the site", () => fetch(`${site}/`).catch(() => undefined), 60_000, 200);
    expect(home.status).toBe(200);
    const availability = await (await fetch(`${site}/v1/scan/availability`)).json();
    expect(availability.data.available).toBe(false);
    expect(availability.data.missing).toEqual(expect.arrayContaining(["ffmpeg", "ffprobe", "colmap", "sr-stereo", "sr-train"]));
    expect(availability.data.message).toMatch(/^Scans are unavailable on this server/);

    // Still both alive a moment later: nothing exited because a tool is missing.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(web.child.exitCode).toBeNull();
    expect(worker.child.exitCode).toBeNull();
  }, 120_000);
});
