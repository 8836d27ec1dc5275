import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../setup/api";
import { s3AppEnv } from "../setup/config";
import { createIdentity, type TestIdentity } from "../setup/firebase-users";
import { renderedPhotoSet } from "../setup/scan-media";
import { startTestServer } from "../setup/test-server";
import { waitFor } from "../setup/wait-for";

/**
 * Workers that share no disk (issue 19 item 3): the web process and two workers as separate
 * processes, each worker with its own SCAN_WORK_DIR and its own (unused) STORAGE_DIR; only
 * PostgreSQL and the S3 server lie between them. The first worker is killed (-9) in the middle of
 * training, after a training checkpoint reached S3; the second, with an empty working folder,
 * finishes the scan from what is in S3. One credit is consumed. (Short training and no mesh keep it to a few minutes: what is checked is where the state lives.)
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
Object.assign(process.env, s3AppEnv());
process.env.STORAGE_DIR = mkdtempSync(path.join(os.tmpdir(), "scanroom-web-storage-"));
const TRAIN_MINUTES = 1;
const WORKER_ENV = {
  SCAN_TRAIN_MINUTES: String(TRAIN_MINUTES),
  SCAN_TRAIN_CHECKPOINT_SECONDS: "20",
  SCAN_MESH: "off",
  SCAN_LEASE_SECONDS: "4",
  SCAN_HEARTBEAT_SECONDS: "1",
  SCAN_STALE_QUEUED_SECONDS: "20",
  SCAN_KILL_GRACE_SECONDS: "2",
};

let server: Awaited<ReturnType<typeof startTestServer>>;
let api: ReturnType<typeof apiClient>;
let owner: TestIdentity;
const children: ChildProcess[] = [];

async function db() {
  return (await import("~/db.server")).db();
}

/** A worker process with folders of its own: nothing on disk is shared with the web process or another worker. */
function worker(name: string) {
  const workDir = mkdtempSync(path.join(os.tmpdir(), `scanroom-${name}-work-`));
  const storageDir = mkdtempSync(path.join(os.tmpdir(), `scanroom-${name}-storage-`));
  const child = spawn(process.execPath, ["--import", "tsx", "app/worker/main.ts"], {
    cwd: ROOT,
    env: { ...process.env, ...WORKER_ENV, SCAN_WORK_DIR: workDir, STORAGE_DIR: storageDir, LOG_LEVEL: "warn" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  children.push(child);
  return { child, workDir, storageDir };
}

beforeAll(async () => {
  server = await startTestServer();
  api = apiClient(server.url);
  owner = await createIdentity({ name: "Scanner" });
  await api("GET", "/user", { token: owner.idToken });
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  const { stopQueue } = await import("~/jobs/queue.server");
  await stopQueue();
  await server?.close();
});

describe("two workers that share no disk", () => {
  it(
    "a scan started on one worker, killed (-9) mid-training, is finished by the other from the checkpoints in S3; one credit consumed",
    async () => {
      const set = await renderedPhotoSet();
      const credits = async () => (await api("GET", "/user/quotas", { token: owner.idToken })).json.data.total_scan_credit as number;
      const creditsBefore = await credits();
      const first = worker("first");

      const created = await api("POST", "/item", { token: owner.idToken, body: { model_type: "ply", upload_type: "image", name: "Cat (two workers)" } });
      const itemId: string = created.json.data.item_id;
      const folder = await api("GET", `/upload/image/${itemId}`, { token: owner.idToken });
      for (const [i, file] of set.files.entries()) {
        const link = await api("GET", `/upload/image/${itemId}/file?filename=image-${String(i + 1).padStart(3, "0")}.jpg`, { token: owner.idToken });
        expect(link.json.data.url.startsWith(process.env.S3_ENDPOINT!)).toBe(true);
        expect((await fetch(link.json.data.url, { method: "PUT", body: new Uint8Array(readFileSync(file)) })).status).toBe(200);
      }
      const scan = await api("POST", `/scan/image/${itemId}`, { token: owner.idToken, body: { input_bucket_path: folder.json.data.path } });
      expect(scan.status).toBe(200);
      const scanJobId: string = scan.json.data.scan_job_id;
      const scanRow = async () => (await db()).scanJob.findUnique({ where: { id: scanJobId } });

      const { storage } = await import("~/storage/index.server");
      await waitFor("the first worker to store a training checkpoint in S3", async () => {
        const job = await scanRow();
        if (job?.status !== "running" || job.stage !== "splat") return false;
        const stored = await storage().list(`items/${itemId}/scan/work/mid-stage/`);
        return stored.some((object) => object.key.includes("/splat-"));
      }, 900_000);
      first.child.kill("SIGKILL");
      await waitFor("the first worker to exit", async () => first.child.signalCode !== null || first.child.exitCode !== null, 10_000);
      expect(readdirSync(first.workDir).length).toBeGreaterThan(0); // it did work on its own disk

      const second = worker("second");
      let last = "";
      const job = await waitFor("the scan to finish", async () => {
        const row = await scanRow();
        last = `${row?.status} at ${row?.stage}`;
        return row && ["succeeded", "failed", "cancelled"].includes(row.status) ? row : null;
      }, 900_000).catch((error: Error) => {
        throw new Error(`${error.message} (the scan was ${last})`);
      });
      expect(job.error).toBeNull();
      expect(job.status).toBe("succeeded");
      expect(job.attempts).toBe(2);
      const metrics = job.metrics as { stages: Record<string, unknown>; training: { resumedFrom: number }; preview: boolean };
      console.warn(`[two workers] stages: ${JSON.stringify(metrics.stages)}; training: ${JSON.stringify(metrics.training)}`);
      // The second worker's folder began empty: the finished stages came from S3, and training resumed from its checkpoint there.
      for (const stage of ["ingest", "frames", "features", "matching", "mapping", "dense", "mesh"]) {
        expect(metrics.stages[stage]).toMatchObject({ skipped: true, attempt: 1 });
      }
      expect(metrics.stages.splat).toMatchObject({ skipped: false, attempt: 2 });
      expect(metrics.training.resumedFrom).toBeGreaterThan(0);
      expect(metrics.preview).toBe(false);
      // Neither worker wrote to a storage folder of its own: storage is S3 only.
      expect(readdirSync(first.storageDir)).toEqual([]);
      expect(readdirSync(second.storageDir)).toEqual([]);
      expect(readdirSync(process.env.STORAGE_DIR!)).toEqual([]);

      const item = await api("GET", `/item/${itemId}`, { token: owner.idToken });
      expect(item.json.data).toMatchObject({ status: "ready", is_preview: false });
      const ledger = await (await db()).ledgerEntry.findMany({ where: { reference: job.reservationRef! } });
      expect(ledger.filter((e) => e.kind === "consumption")).toHaveLength(1);
      expect(ledger.filter((e) => e.kind === "release")).toHaveLength(0);
      expect(await credits()).toBe(creditsBefore - 1);
    },
    1_900_000,
  );
});
