import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScanWorker } from "~/worker/worker.server";
import { apiClient } from "../setup/api";
import { XOR_KEY } from "../setup/config";
import { createIdentity, type TestIdentity } from "../setup/firebase-users";
import { noisePhotoSet, orbitVideo, renderedPhotoSet, type RenderedSet } from "../setup/scan-media";
import { PNG } from "pngjs";
import { cameraCenter as cameraCenterOf, rotationMatrix } from "~/worker/colmap-model";
import { startScanInspector, type MeshCamera } from "../setup/scan-inspection";
import { alignSimilarity } from "../setup/similarity";
import { maskedPsnr, surfaceAgreement } from "../setup/surface-metrics";
import { startTestServer } from "../setup/test-server";
import { waitFor } from "../setup/wait-for";

/**
 * The scan pipeline for real, on the CPU (issues 5, 14, 15): photo sets rendered from cat.glb go through
 * the API (item, signed uploads, POST /v1/scan/image), and real workers run ffmpeg, COLMAP and our
 * native programs on them (dense stereo, textured mesh, splat training). Workers use a short lease
 * here (4 s) so a takeover happens within the test, and a short training budget (TRAIN_MINUTES).
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const WORK_DIR = mkdtempSync(path.join(os.tmpdir(), "scanroom-scan-work-"));
/** The training budget in these tests (wall clock, 2 cores shared with the other test files). */
const TRAIN_MINUTES = 3;
/** The video scan's training budget: its test is about frames and cameras, the image-set test about the training. */
const VIDEO_TRAIN_MINUTES = 1;
const WORKER_ENV = {
  SCAN_WORK_DIR: WORK_DIR,
  SCAN_TRAIN_MINUTES: String(TRAIN_MINUTES),
  // A checkpoint every 20 s, so a worker killed during training leaves one behind.
  SCAN_TRAIN_CHECKPOINT_SECONDS: "20",
  SCAN_LEASE_SECONDS: "4",
  SCAN_HEARTBEAT_SECONDS: "1",
  SCAN_STALE_QUEUED_SECONDS: "20",
  SCAN_KILL_GRACE_SECONDS: "2",
};

let server: Awaited<ReturnType<typeof startTestServer>>;
let api: ReturnType<typeof apiClient>;
let owner: TestIdentity;
let worker: ScanWorker | null = null;
const children: ChildProcess[] = [];

async function db() {
  return (await import("~/db.server")).db();
}

/**
 * The in-process worker (started on first use, so it cannot take a job meant for a child worker). Asked for
 * other settings than the running one has, it stops that one and starts one with them.
 */
let workerSettings = "";
async function inProcessWorker(overrides: Record<string, string> = {}) {
  const settings = JSON.stringify(overrides);
  if (worker && workerSettings !== settings) {
    await worker.stop();
    worker = null;
  }
  if (!worker) {
    const { parseWorkerConfig } = await import("~/env.server");
    const { startScanWorker } = await import("~/worker/worker.server");
    worker = await startScanWorker({ config: parseWorkerConfig({ ...process.env, ...WORKER_ENV, ...overrides }) });
    workerSettings = settings;
  }
  return worker;
}

/** `npm run worker` as its own process (node directly, so SIGKILL hits the worker itself). */
function childWorker(): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "app/worker/main.ts"], {
    cwd: ROOT,
    env: { ...process.env, ...WORKER_ENV, LOG_LEVEL: "warn" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  children.push(child);
  return child;
}

/** Kills a child worker without a chance to clean up, and waits for it to be gone. */
async function killWorker(child: ChildProcess) {
  child.kill("SIGKILL");
  await waitFor("the worker to exit", async () => child.exitCode !== null || child.signalCode !== null, 10_000);
}

/**
 * A COLMAP camera (upright scan frame: x right, y down, z forward) as a three.js camera in the mesh's
 * glTF frame, where the scan frame is flipped (x, −y, −z): rotation F·Rᵀ·D with F = D = diag(1, −1, −1).
 */
function meshCameraOf(image: { q: [number, number, number, number]; t: [number, number, number] }, focal: number, width: number, height: number): MeshCamera {
  const r = rotationMatrix(image.q);
  const c = cameraCenterOf(image);
  const sign = [1, -1, -1];
  // (F Rᵀ D)[i][j] = sign[i] · R[j][i] · sign[j]
  const rotation = [0, 1, 2].flatMap((i) => [0, 1, 2].map((j) => sign[i] * r[j * 3 + i] * sign[j]));
  return { position: [c[0], -c[1], -c[2]], rotation, fovDeg: (2 * Math.atan(height / 2 / focal) * 180) / Math.PI, width, height };
}

/** What a client does: create the item, PUT each image to its signed URL, ask for the scan. */
async function requestImageScan(set: RenderedSet, name: string) {
  const created = await api("POST", "/item", { token: owner.idToken, body: { model_type: "ply", upload_type: "image", name } });
  expect(created.status).toBe(200);
  const itemId: string = created.json.data.item_id;
  const folder = await api("GET", `/upload/image/${itemId}`, { token: owner.idToken });
  expect(folder.status).toBe(200);
  for (const [i, file] of set.files.entries()) {
    const link = await api("GET", `/upload/image/${itemId}/file?filename=image-${String(i + 1).padStart(3, "0")}.jpg`, { token: owner.idToken });
    expect(link.status).toBe(200);
    const put = await fetch(link.json.data.url, { method: "PUT", body: new Uint8Array(readFileSync(file)) });
    expect(put.status).toBe(200);
  }
  const scan = await api("POST", `/scan/image/${itemId}`, { token: owner.idToken, body: { input_bucket_path: folder.json.data.path } });
  expect(scan.status).toBe(200);
  return { itemId, scanJobId: scan.json.data.scan_job_id as string };
}

/**
 * Waits for a finished scan's working files to be gone, here and in storage: the worker removes them right
 * after the job's final state is committed (so a failed commit can still resume), a moment after the test
 * sees that state. Bounded: files still there after a minute are a leak.
 */
async function expectWorkFilesRemoved(itemId: string, scanJobId: string) {
  const { storage } = await import("~/storage/index.server");
  let left: string[] = [];
  await waitFor(
    "the scan's working files to be removed",
    async () => {
      left = (await storage().list(`items/${itemId}/scan/work/`)).map((file) => file.key);
      return left.length === 0 && !existsSync(path.join(WORK_DIR, scanJobId));
    },
    60_000,
  ).catch((error: Error) => {
    throw new Error(`${error.message}: ${left.length} stored files left (${left.slice(0, 3).join(", ")} …)`);
  });
}

async function scanCredits() {
  const quotas = await api("GET", "/user/quotas", { token: owner.idToken });
  return quotas.json.data.total_scan_credit as number;
}

async function ledger(reference: string) {
  const entries = await (await db()).ledgerEntry.findMany({ where: { reference } });
  return { reserved: entries.filter((e) => e.kind === "reservation"), consumed: entries.filter((e) => e.kind === "consumption"), released: entries.filter((e) => e.kind === "release") };
}

beforeAll(async () => {
  server = await startTestServer();
  api = apiClient(server.url);
  owner = await createIdentity({ name: "Scanner" });
  await api("GET", "/user", { token: owner.idToken });
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await worker?.stop();
  const { stopQueue } = await import("~/jobs/queue.server");
  await stopQueue();
  await server?.close();
});

describe("an image-set scan", () => {
  it(
    "survives two workers killed (-9), in matching and in training, and publishes a trained splat and a textured mesh that match the cat, one credit spent",
    async () => {
      const set = await renderedPhotoSet();
      const creditsBefore = await scanCredits();
      const first = childWorker();
      const { itemId, scanJobId } = await requestImageScan(set, "Cat statue (Image Set)");
      const scanRow = async () => (await db()).scanJob.findUnique({ where: { id: scanJobId } });

      // The first worker gets as far as matching, then dies without a chance to clean up.
      await waitFor("the first worker to reach matching", async () => {
        const job = await scanRow();
        return job?.stage === "matching" && job.status === "running";
      }, 240_000);
      const orphanPids = readFileSync(path.join(WORK_DIR, scanJobId, "tools.pids"), "utf8").split("\n").map(Number).filter(Boolean);
      await killWorker(first);
      const midway = await api("GET", `/item/${itemId}`, { token: owner.idToken });
      expect(midway.json.data).toMatchObject({ status: "processing" });
      expect(midway.json.data.status_detail).toMatch(/^Matching images — \d+%/);

      // A second worker notices the silent lease, takes the job over and trains until its first
      // checkpoint is stored; then it dies too.
      const second = childWorker();
      const { storage } = await import("~/storage/index.server");
      await waitFor("the second worker to store a training checkpoint", async () => {
        const job = await scanRow();
        if (job?.status !== "running" || job.stage !== "splat") return false;
        const stored = await storage().list(`items/${itemId}/scan/work/mid-stage/`);
        return stored.some((object) => object.key.includes("/splat-"));
      }, 600_000);
      await killWorker(second);

      // A third worker resumes the training from that checkpoint and finishes the scan.
      await inProcessWorker();
      let last = "";
      const job = await waitFor("the scan to finish", async () => {
        const row = await scanRow();
        last = `${row?.status} at ${row?.stage} ${Math.round((row?.progress ?? 0) * 100)}%`;
        return row && ["succeeded", "failed", "cancelled"].includes(row.status) ? row : null;
      }, 900_000).catch((error: Error) => {
        throw new Error(`${error.message} (the scan was ${last})`);
      });
      expect(job.error).toBeNull();
      expect(job.status).toBe("succeeded");
      expect(job.attempts).toBe(3);
      const metrics = job.metrics as any;
      console.warn(`[scan] stages: ${JSON.stringify(metrics.stages)}`);
      // Finished stages were not run again: their manifests matched, their work came from the checkpoint.
      for (const stage of ["ingest", "frames", "features"]) expect(metrics.stages[stage]).toMatchObject({ skipped: true, attempt: 1 });
      for (const stage of ["matching", "mapping", "dense", "mesh"]) expect(metrics.stages[stage]).toMatchObject({ skipped: true, attempt: 2 });
      for (const stage of ["splat", "export", "evaluation"]) expect(metrics.stages[stage]).toMatchObject({ skipped: false, attempt: 3 });
      // The orphaned matcher of the first worker was stopped before the job ran again.
      for (const pid of orphanPids) expect(() => process.kill(-pid, 0)).toThrow();

      // COLMAP really placed the cameras, where the renderer put them — matching the pairs a pre-pass chose (24 photos).
      expect(metrics.matching).toBe("overlap");
      expect(metrics.totalImages).toBe(set.files.length);
      expect(metrics.registeredRatio).toBeGreaterThanOrEqual(0.9);
      expect(metrics.meanReprojectionError).toBeLessThanOrEqual(1.5);
      expect(metrics.points).toBeGreaterThanOrEqual(2000);
      expect(metrics.heldOutFrames).toBe(Math.ceil(set.files.length / 8));
      const { cameraCenter, parseCameras, parseImages } = await import("~/worker/colmap-model");
      const readText = async (key: string) => new Response((await storage().createReadStream(key)) as any).text();
      const recovered = parseImages(await readText(`${metrics.outputs.sparse}images.txt`));
      const cameras = parseCameras(await readText(`${metrics.outputs.sparse}cameras.txt`));
      const truth = new Map(set.cameras.map((c) => [c.file, c.position]));
      const alignment = alignSimilarity(recovered.map(cameraCenter), recovered.map((image) => truth.get(image.name)!));
      console.warn(`[scan] camera centres after similarity alignment: RMSE ${alignment.rmse.toFixed(4)}, max ${alignment.maxError.toFixed(4)} (orbit radius 2.2)`);
      expect(alignment.rmse).toBeLessThan(0.05);

      // Dense geometry: many times the sparse points, cropped to what the cameras share.
      console.warn(`[scan] dense: ${JSON.stringify(metrics.dense)}`);
      // Measured: 44,925 fused points, 26,764 kept around the cat, from 2,854 sparse ones.
      expect(metrics.dense.fusedPoints).toBeGreaterThan(10 * metrics.points);
      expect(metrics.dense.points).toBeGreaterThan(5 * metrics.points);
      expect(metrics.dense.fusedPoints).toBeGreaterThanOrEqual(metrics.dense.points);

      // A trained splat (not a preview), resumed from the second worker's checkpoint; the delivered splat and mesh
      // scored on the test views over the whole frame (the evaluation stage).
      console.warn(
        `[scan] training: ${JSON.stringify(metrics.training)}; delivered on ${metrics.evaluatedViews} test views: splat ${metrics.psnr} dB / SSIM ${metrics.ssim} ` +
          `(covers ${metrics.splatCoverage}), mesh ${metrics.meshPsnr} dB / SSIM ${metrics.meshSsim} (covers ${metrics.meshCoverage}); validation ${JSON.stringify(metrics.validation)} (budget ${TRAIN_MINUTES} min)`,
      );
      expect(metrics.preview).toBe(false);
      expect(metrics.trainer).toBe("scanroom-cpu");
      expect(metrics.training.resumedFrom).toBeGreaterThan(0);
      // Why it stopped: the validation views' plateau or the budget (the ceiling) — never unsaid.
      expect(["plateau", "budget"]).toContain(metrics.training.stopped);
      expect(metrics.evaluatedViews).toBe(metrics.heldOutFrames);
      expect(metrics.validation.views).toBe(Math.ceil((set.files.length - 4) / 8));
      expect(metrics.psnr).toBeGreaterThanOrEqual(24);
      // The splat covers the whole frame (its sky splats too); the mesh covers the cat and the floor, not the sky
      // (measured: 63 % of the frame), so its whole-frame figure is low (9.2 dB) and the surface itself is checked
      // below where it is drawn.
      expect(metrics.splatCoverage).toBeGreaterThan(0.95);
      expect(metrics.meshCoverage).toBeGreaterThan(0.5);
      expect(metrics.meshCoverage).toBeLessThan(metrics.splatCoverage);

      // The owner sees a ready, trained model that opens from the first capture camera.
      const item = await api("GET", `/item/${itemId}`, { token: owner.idToken });
      expect(item.json.data).toMatchObject({ status: "ready", is_preview: false, file_format: "ply", model_url: `/v1/item/${itemId}/file` });
      expect(item.json.data.thumbnail_url).toMatch(/^\/v1\/item\//);
      const firstFrame = recovered.find((image) => image.name === "image-001.jpg")!;
      const centre = cameraCenter(firstFrame);
      const opening = item.json.data.settings.camera;
      expect(opening.position[0]).toBeCloseTo(centre[0], 3);
      expect(opening.position[1]).toBeCloseTo(-centre[1], 3);
      expect(opening.position[2]).toBeCloseTo(-centre[2], 3);
      const focal = cameras.find((c) => c.id === firstFrame.cameraId)!.params[0];
      expect(opening.fov).toBeCloseTo((2 * Math.atan(300 / focal) * 180) / Math.PI, 1);

      const key = new TextEncoder().encode(XOR_KEY);
      const download = async (query = "") => {
        const file = await fetch(`${server.url}/v1/item/${itemId}/file${query}`, { headers: { Authorization: `Bearer ${owner.idToken}` } });
        expect(file.status).toBe(200);
        return new Uint8Array(await file.arrayBuffer()).map((b, i) => b ^ key[i % key.length]);
      };
      const ply = await download("?original=true");
      const { validateSplatPly } = await import("~/formats/splat-ply");
      const parsed = validateSplatPly(ply);
      expect(parsed.count).toBe(metrics.splats);
      // Viewers get the compact .sog copy (a zip bundle) holding every splat, a fraction of the .ply's size.
      expect(metrics.outputs.delivery).toMatch(/\.sog$/);
      expect(metrics.delivery).toMatchObject({ format: "sog", splats: parsed.count });
      const sog = await download();
      expect(Array.from(sog.subarray(0, 4))).toEqual([0x50, 0x4b, 0x03, 0x04]);
      expect(sog.length).toBe(metrics.delivery.bytes);
      expect(sog.length).toBeLessThan(ply.length);

      // The owner's figure is of what is delivered, measured right: training views scored through the held-out
      // path (the published splat and sparse model, the uploaded photo undistorted by COLMAP at full size, then
      // brought to 640 px) against what the trainer measured on them before export — the .ply, the very splat the
      // trainer scored, drawn by its own rasteriser against its own copy of the photo (COLMAP's undistortion
      // straight to 640 px, the pixels it trained on). The two copies of a photo differ (one run: 43 dB apart),
      // and the trainer fitted its copy's pixels, so its figure sits above the held-out one by up to what the
      // copies differ (one run: 34.68 against 33.58 dB). What holds whatever the run, by the triangle inequality
      // on RMS errors: held-out ≤ trainer's + between the copies + between the two rasterisers (0.004: they agree
      // to 51 dB, tests/integration/scan-evaluation.test.ts). A camera off by 2 px breaks it (3 dB and more).
      // The .sog viewers get is that splat quantized (codebooks, 8–16-bit fields): it costs more where a view is
      // good (one run measured 30.76 dB by the trainer, 29.57 dB through the .sog), so its bound is 1.5 dB of the .ply.
      {
        const { evaluateViews, readPhoto } = await import("~/worker/evaluation/delivered-quality.server");
        const { psnr } = await import("~/worker/evaluation/image-quality");
        const { WORKING_SIZE } = await import("~/worker/stages/dense.server");
        const { readSplatCloud } = await import("~/thumbnails/read-splats.server");
        const { parseHexColor } = await import("~/thumbnails/color");
        const { DEFAULT_BACKGROUND } = await import("~/viewer/background");
        const dir = mkdtempSync(path.join(os.tmpdir(), "scanroom-train-view-"));
        mkdirSync(path.join(dir, "images"));
        mkdirSync(path.join(dir, "sparse"));
        for (const name of ["cameras.txt", "images.txt", "points3D.txt"]) writeFileSync(path.join(dir, "sparse", name), await readText(`${metrics.outputs.sparse}${name}`));
        const trainViews = metrics.training.log.trainViews as Array<{ name: string; psnr: number }>;
        expect(trainViews.length).toBeGreaterThanOrEqual(2);
        for (const view of trainViews) copyFileSync(set.files[Number(view.name.slice(6, 9)) - 1], path.join(dir, "images", view.name));
        const colmap = (args: string[]) => execFileSync(process.env.COLMAP_BIN ?? "colmap", args, { env: { ...process.env, QT_QPA_PLATFORM: "offscreen" }, stdio: "ignore" });
        const scored = (splat: Awaited<ReturnType<typeof readSplatCloud>>, work: string) =>
          evaluateViews({
            images: path.join(dir, "images"),
            sparse: path.join(dir, "sparse"),
            names: trainViews.map((v) => v.name),
            workDir: path.join(dir, work),
            model: { splat, mesh: null },
            background: parseHexColor(DEFAULT_BACKGROUND),
            colmap: async (args) => void colmap(args),
            pictures: path.join(dir, `${work}-pictures`),
          });
        const plyScores = await scored(await readSplatCloud(ply, "ply"), "work-ply");
        const sogScores = await scored(await readSplatCloud(sog, "sog"), "work-sog");
        // The trainer's copies, made as the dense stage makes them.
        writeFileSync(path.join(dir, "views.txt"), trainViews.map((v) => v.name).join("\n") + "\n");
        colmap([
          ...["image_undistorter", "--image_path", path.join(dir, "images"), "--input_path", path.join(dir, "sparse"), "--output_path", path.join(dir, "trainer-copy")],
          ...["--output_type", "COLMAP", "--max_image_size", String(WORKING_SIZE), "--image_list_path", path.join(dir, "views.txt")],
        ]);
        const rms = (db: number) => 10 ** (-db / 20);
        for (const view of trainViews) {
          const fromPly = plyScores.find((s) => s.name === view.name)!.splat!;
          const fromSog = sogScores.find((s) => s.name === view.name)!.splat!;
          const trainerCopy = await readPhoto(path.join(dir, "trainer-copy/images", view.name));
          // The held-out copy is the left panel of the photo | splat picture.
          const sideBySide = await readPhoto(path.join(dir, "work-ply-pictures", `${view.name.replace(/\.[^.]+$/, "")}.png`));
          expect(sideBySide.width).toBe(2 * trainerCopy.width);
          expect(sideBySide.height).toBe(trainerCopy.height);
          const rowBytes = trainerCopy.width * 3;
          const heldOutCopy = { width: trainerCopy.width, height: trainerCopy.height, rgb: new Uint8Array(rowBytes * trainerCopy.height) };
          for (let y = 0; y < trainerCopy.height; y++) heldOutCopy.rgb.set(sideBySide.rgb.subarray(y * 2 * rowBytes, y * 2 * rowBytes + rowBytes), y * rowBytes);
          const copies = rms(psnr(trainerCopy, heldOutCopy));
          const bound = -20 * Math.log10(rms(view.psnr) + copies + 0.004);
          console.warn(
            `[scan] training view ${view.name}: the trainer measured ${view.psnr.toFixed(2)} dB; through the held-out path the .ply ${fromPly.psnr} dB ` +
              `(bound: ≥ ${bound.toFixed(2)} dB, the copies of the photo ${(-20 * Math.log10(copies)).toFixed(2)} dB apart), the delivered .sog ${fromSog.psnr} dB (bound: within 1.5 dB of the .ply)`,
          );
          expect(fromPly.psnr).toBeGreaterThanOrEqual(bound);
          expect(Math.abs(fromSog.psnr - fromPly.psnr)).toBeLessThanOrEqual(1.5);
        }
        rmSync(dir, { recursive: true, force: true });
      }

      // The capture photo is the thumbnail at first; the thumbnail job then replaces it with a render of
      // the published splat from the opening view (its key named auto-…, a 640×480 WebP).
      const rendered = await waitFor(
        "the thumbnail rendered from the published model",
        async () => {
          const url = (await api("GET", `/item/${itemId}`, { token: owner.idToken })).json.data.thumbnail_url as string;
          return /[?&]v=auto-/.test(url) ? url : null;
        },
        120_000,
        1_000,
      );
      const thumbnail = await fetch(`${server.url}${rendered}`, { headers: { Authorization: `Bearer ${owner.idToken}` } });
      expect(thumbnail.headers.get("content-type")).toBe("image/webp");
      const { default: sharp } = await import("sharp");
      const thumbnailMeta = await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata();
      expect([thumbnailMeta.width, thumbnailMeta.height]).toEqual([640, 480]);

      // The textured mesh: a valid GLB with a baked texture, within the web budget.
      expect(item.json.data.mesh_url).toBe(`/v1/item/${itemId}/file?variant=mesh`);
      const glb = await download("?variant=mesh");
      const { assertValidGltf } = await import("~/worker/gltf-validation.server");
      await assertValidGltf(glb);
      const gltfJson = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + new DataView(glb.buffer).getUint32(12, true))));
      expect(gltfJson.materials?.[0]?.pbrMetallicRoughness?.baseColorTexture).toBeDefined();
      expect(gltfJson.images?.length).toBeGreaterThanOrEqual(1);
      expect(gltfJson.meshes[0].primitives[0].attributes.TEXCOORD_0).toBeDefined();
      // Web-ready: meshopt geometry and a WebP atlas (the viewer decodes both).
      expect(gltfJson.extensionsUsed).toEqual(expect.arrayContaining(["EXT_meshopt_compression", "EXT_texture_webp"]));
      expect(gltfJson.images[0].mimeType).toBe("image/webp");
      console.warn(`[scan] mesh: ${JSON.stringify(metrics.mesh)}; light level ${JSON.stringify(metrics.meshLite)}; GLB ${glb.length} bytes`);
      // Measured on this set: 1.0 MB (15.9 MB before compression); a product page's budget is a few MB.
      expect(glb.length).toBeLessThanOrEqual(8 * 1024 * 1024);
      expect(metrics.mesh.triangles).toBeGreaterThan(10_000);
      expect(metrics.mesh.triangles).toBeLessThanOrEqual(200_000);
      expect(metrics.meshLite.triangles).toBeLessThanOrEqual(50_000);
      const lite = await download("?variant=mesh_lite");
      await assertValidGltf(lite);
      // Measured 0.66 MB (the light level for AR and product pages).
      expect(lite.length).toBeLessThanOrEqual(3 * 1024 * 1024);
      // "View in your space" places the splat scan's light mesh: a USDZ made on the server, textured (its WebP atlas
      // as a JPEG, which Quick Look reads), with its triangles (issue 35 item 1).
      const usdz = await fetch(`${server.url}${item.json.data.ar.usdz_url}`, { headers: { Authorization: `Bearer ${owner.idToken}` } });
      expect(usdz.headers.get("content-type")).toBe("model/vnd.usdz+zip");
      const { listZipEntries, zipEntryData } = await import("~/formats/zip");
      const usdzBytes = new Uint8Array(await usdz.arrayBuffer());
      const usdzEntries = listZipEntries(usdzBytes);
      expect(usdzEntries[0].name).toBe("model.usda");
      expect(usdzEntries.map((entry) => entry.name)).toContain("textures/texture_0.jpg");
      const usda = new TextDecoder().decode(zipEntryData(usdzBytes, usdzEntries[0]));
      const usdTriangles = [...usda.matchAll(/int\[\] faceVertexCounts = \[([^\]]*)\]/g)].reduce((sum, m) => sum + m[1].split(",").length, 0);
      console.warn(`[scan] AR USDZ: ${usdzBytes.length} bytes, ${usdTriangles} triangles (light mesh ${metrics.meshLite.triangles})`);
      // (Welding drops degenerate triangles only: bound 95 %.)
      expect(usdTriangles).toBeLessThanOrEqual(metrics.meshLite.triangles);
      expect(usdTriangles).toBeGreaterThanOrEqual(0.95 * metrics.meshLite.triangles);

      const inspector = await startScanInspector();
      try {
        // The mesh against the cat's own surface: the scan's frame aligned to the renderer's by the cameras.
        const meshWorld = await inspector.meshTriangles(glb);
        const aligned = new Float32Array(meshWorld.length);
        for (let i = 0; i < meshWorld.length; i += 3) {
          // glTF frame → the scan's (COLMAP, upright) frame → the renderer's frame.
          aligned.set(alignment.apply([meshWorld[i], -meshWorld[i + 1], -meshWorld[i + 2]]), i);
        }
        const agreement = surfaceAgreement({
          reconstruction: aligned,
          truth: await inspector.catTriangles(),
          cameras: set.cameras.map((c) => ({ position: c.position, target: c.target, fovDeg: c.fovDeg, width: 200, height: 150 })),
          coverageShare: 0.02,
          margin: 0.03,
          floorY: 0.02,
          spacing: 0.004,
        });
        console.warn(
          `[scan] mesh vs cat: median distance ${(agreement.medianDistance / agreement.diagonal * 100).toFixed(2)} % of the diagonal (bound 1 %), ` +
            `coverage ${(agreement.coverage * 100).toFixed(1)} % within 2 % (bound 80 %); ${agreement.reconstructionSamples} mesh samples, ${agreement.visibleTruthSamples} visible cat samples`,
        );
        expect(agreement.medianDistance).toBeLessThanOrEqual(0.01 * agreement.diagonal);
        expect(agreement.coverage).toBeGreaterThanOrEqual(0.8);

        // Rendered from a held-out camera, the mesh looks like the held-out photo where it is drawn.
        const heldOut = recovered.find((image) => image.name === "image-009.jpg")!;
        const photo = await inspector.photoPixels(set.files.find((f) => f.endsWith("image-009.jpg"))!);
        const camera = cameras.find((c) => c.id === heldOut.cameraId)!;
        const rendered = await inspector.renderMesh(glb, meshCameraOf(heldOut, camera.params[0], photo.width, photo.height));
        const score = maskedPsnr(rendered, photo.data, photo.width, photo.height);
        writeFileSync(path.join(ROOT, "tests/.tmp/scan-heldout-mesh.png"), PNG.sync.write(Object.assign(new PNG({ width: photo.width, height: photo.height }), { data: Buffer.from(rendered) })));
        // Measured 24.7–24.8 dB on this set with one photo per patch and the ground on the measured plane
        // (22.0–22.4 dB before, decision 034); the bound is the goal.
        console.warn(`[scan] textured mesh from held-out view image-009: PSNR ${score.psnr.toFixed(2)} dB over the ${(score.coverage * 100).toFixed(1)} % of pixels it covers (bound 22 dB)`);
        expect(score.coverage).toBeGreaterThan(0.3);
        expect(score.psnr).toBeGreaterThanOrEqual(22);

        // The published .ply, drawn by Spark as the viewer draws it, from the same held-out camera.
        const splatRender = await inspector.renderSplat(ply, meshCameraOf(heldOut, camera.params[0], photo.width, photo.height));
        // Splats blend: every pixel the splat covers at least half counts.
        const splatScore = maskedPsnr(splatRender, photo.data, photo.width, photo.height, 128);
        writeFileSync(path.join(ROOT, "tests/.tmp/scan-heldout-splat.png"), PNG.sync.write(Object.assign(new PNG({ width: photo.width, height: photo.height }), { data: Buffer.from(splatRender) })));
        console.warn(`[scan] trained splat in Spark from held-out view image-009: PSNR ${splatScore.psnr.toFixed(2)} dB over the ${(splatScore.coverage * 100).toFixed(1)} % of pixels it covers at least half (bound 20 dB)`);
        expect(splatScore.coverage).toBeGreaterThan(0.3);
        expect(splatScore.psnr).toBeGreaterThanOrEqual(20);
      } finally {
        await inspector.close();
      }

      // The owner reads the same figures through the API (shown on the model page).
      const scan = await api("GET", `/scan/${itemId}`, { token: owner.idToken });
      expect(scan.json.data).toMatchObject({
        status: "succeeded",
        progress: 1,
        can_retry: false,
        metrics: {
          registered_images: metrics.registeredImages,
          total_images: set.files.length,
          points: metrics.points,
          dense_points: metrics.dense.points,
          splats: metrics.splats,
          held_out_frames: metrics.heldOutFrames,
          preview: false,
          psnr: metrics.psnr,
          mesh_triangles: metrics.mesh.triangles,
          trained_iterations: metrics.training.iterations,
          training_stopped: metrics.training.stopped,
        },
      });

      // One credit reserved and consumed once, never released; the owner was told.
      const credits = await ledger(job.reservationRef!);
      expect(credits.reserved).toHaveLength(1);
      expect(credits.consumed).toHaveLength(1);
      expect(credits.released).toHaveLength(0);
      expect(await scanCredits()).toBe(creditsBefore - 1);
      const bell = await api("GET", "/notifications", { token: owner.idToken });
      expect(bell.json.data.notifications).toEqual(expect.arrayContaining([expect.objectContaining({ kind: "scan_finished", link: `/item/${itemId}` })]));

      // Working files are gone; the uploaded photos stay for a later reprocessing.
      await expectWorkFilesRemoved(itemId, scanJobId);
      expect(await storage().list(`items/${itemId}/images/`)).toHaveLength(set.files.length);
    },
    1_500_000,
  );

  it(
    "of unrelated images stops at the quality gate with advice, and the credit is released",
    async () => {
      const set = await noisePhotoSet({ count: 20 });
      await inProcessWorker();
      const creditsBefore = await scanCredits();
      const { itemId, scanJobId } = await requestImageScan(set, "Noise (Image Set)");
      expect(await scanCredits()).toBe(creditsBefore - 1);
      const job = await waitFor("the scan to end", async () => {
        const row = await (await db()).scanJob.findUnique({ where: { id: scanJobId } });
        return row && ["succeeded", "failed"].includes(row.status) ? row : null;
      }, 480_000);
      expect(job.status).toBe("failed");
      expect(job.error).toMatch(/could be placed|3D points/);
      expect(job.advice).toMatch(/overlap|light/);

      const item = await api("GET", `/item/${itemId}`, { token: owner.idToken });
      expect(item.json.data).toMatchObject({ status: "failed", model_url: null });
      expect(item.json.data.status_detail).toContain(job.advice!);
      const credits = await ledger(job.reservationRef!);
      expect(credits.consumed).toHaveLength(0);
      expect(credits.released).toHaveLength(1);
      expect(await scanCredits()).toBe(creditsBefore);
      const bell = await api("GET", "/notifications", { token: owner.idToken });
      expect(bell.json.data.notifications).toEqual(expect.arrayContaining([expect.objectContaining({ kind: "scan_failed", link: `/item/${itemId}` })]));
      await expectWorkFilesRemoved(itemId, scanJobId);
    },
    600_000,
  );

  it(
    "cancelled during features stops its tools, releases the credit and removes the working files",
    async () => {
      const set = await renderedPhotoSet();
      await inProcessWorker();
      const creditsBefore = await scanCredits();
      const { itemId, scanJobId } = await requestImageScan(set, "Cancelled (Image Set)");
      const pidFile = path.join(WORK_DIR, scanJobId, "tools.pids");
      await waitFor("feature extraction to run", async () => {
        const job = await (await db()).scanJob.findUnique({ where: { id: scanJobId } });
        return job?.stage === "features" && existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "";
      }, 120_000);
      const pids = readFileSync(pidFile, "utf8").split("\n").map(Number).filter(Boolean);
      // The owner cancels; the running scan says so at once, and its worker stops it.
      const cancel = await api("POST", `/scan/${itemId}/cancel`, { token: owner.idToken });
      expect(cancel.status).toBe(200);
      expect(cancel.json.data).toMatchObject({ status: "cancelled", finished_at: null, can_retry: false });
      const job = await waitFor("the worker to stop the scan", async () => {
        const row = await (await db()).scanJob.findUnique({ where: { id: scanJobId } });
        return row?.finishedAt ? row : null;
      }, 60_000);
      expect(job).toMatchObject({ status: "cancelled", error: "Cancelled by the owner." });
      for (const pid of pids) expect(() => process.kill(-pid, 0)).toThrow();
      const item = await api("GET", `/item/${itemId}`, { token: owner.idToken });
      expect(item.json.data).toMatchObject({ status: "failed", status_detail: "Scan cancelled." });
      const credits = await ledger(job.reservationRef!);
      expect(credits.released).toHaveLength(1);
      expect(credits.consumed).toHaveLength(0);
      expect(await scanCredits()).toBe(creditsBefore);
      await expectWorkFilesRemoved(itemId, scanJobId);
      const after = await api("GET", `/scan/${itemId}`, { token: owner.idToken });
      expect(after.json.data).toMatchObject({ status: "cancelled", can_cancel: false, can_retry: true });
    },
    300_000,
  );
});

describe("a video scan", () => {
  it(
    "turns a 16:9 orbit video into a published splat, cameras where the renderer put them, one credit spent",
    async () => {
      // 3 s at 12 fps: 36 frames, 10° apart around the model (a longer video only adds matching time).
      const video = await orbitVideo({ count: 36 });
      // What this test checks is the video's part (frames, sequential matching, cameras); the image-set test
      // above checks the trained result, so training here gets one minute.
      await inProcessWorker({ SCAN_TRAIN_MINUTES: String(VIDEO_TRAIN_MINUTES) });
      const creditsBefore = await scanCredits();
      const created = await api("POST", "/item", { token: owner.idToken, body: { model_type: "ply", upload_type: "video", name: "orbit" } });
      const itemId: string = created.json.data.item_id;
      const link = await api("GET", `/upload/video/${itemId}?filename=orbit.mp4`, { token: owner.idToken });
      expect(link.status).toBe(200);
      expect((await fetch(link.json.data.url, { method: "PUT", body: new Uint8Array(readFileSync(video.path)) })).status).toBe(200);
      const scan = await api("POST", `/scan/video/${itemId}`, {
        token: owner.idToken,
        body: { duration: video.duration, width: video.width, height: video.height, input_bucket_path: link.json.data.path },
      });
      expect(scan.status).toBe(200);
      const scanJobId: string = scan.json.data.scan_job_id;
      let last = "";
      const job = await waitFor("the video scan to finish", async () => {
        const row = await (await db()).scanJob.findUnique({ where: { id: scanJobId } });
        last = `${row?.status} at ${row?.stage} ${Math.round((row?.progress ?? 0) * 100)}%`;
        return row && ["succeeded", "failed", "cancelled"].includes(row.status) ? row : null;
        // Generous: on 2 cores shared with the other test files the whole scan (dense, mesh, 3 training minutes
        // then) once took longer than 10 minutes.
      }, 1_200_000).catch((error: Error) => {
        throw new Error(`${error.message} (the scan was ${last})`);
      });
      expect(job.error).toBeNull();
      expect(job.status).toBe("succeeded");
      const metrics = job.metrics as any;
      expect(metrics.matching).toBe("sequential");
      // One frame per equal time window (the video has fewer frames than windows: every one is a window).
      const selection = metrics.frameSelection;
      expect(selection.decoded).toBe(video.cameras.length);
      expect(selection.kept).toBe(selection.sourceFrames.length);
      expect(selection.kept).toBeGreaterThanOrEqual(0.8 * video.cameras.length);
      expect(metrics.registeredRatio).toBeGreaterThanOrEqual(0.9);
      expect(metrics.meanReprojectionError).toBeLessThanOrEqual(1.5);
      expect(metrics.points).toBeGreaterThanOrEqual(2000);

      // Each kept frame is a known rendering camera: the recovered centres match them after alignment.
      const { storage } = await import("~/storage/index.server");
      const { cameraCenter, parseImages } = await import("~/worker/colmap-model");
      const recovered = parseImages(await new Response((await storage().createReadStream(`${metrics.outputs.sparse}images.txt`)) as any).text());
      const truth = (name: string) => video.cameras[selection.sourceFrames[Number(/frame-(\d+)/.exec(name)![1]) - 1]].position;
      const alignment = alignSimilarity(recovered.map(cameraCenter), recovered.map((image) => truth(image.name)));
      console.warn(`[scan] video: ${recovered.length}/${selection.kept} frames placed, camera RMSE ${alignment.rmse.toFixed(4)}, max ${alignment.maxError.toFixed(4)} (orbit radius 2.2)`);
      // Measured: 34 of 36 frames within 0.035 of their render camera; COLMAP places the two side views at the
      // orbit's highest points about one orbit step (0.4) off, which makes the RMSE 0.10 (the frames themselves
      // were checked: no duplicates, and the extraction's frame numbers match the video's). So: nine in ten
      // frames within 0.06 (under 3 % of the radius), and no reconstruction misplaced or misordered as a whole.
      expect(alignment.errors.filter((error) => error < 0.06).length).toBeGreaterThanOrEqual(0.9 * recovered.length);
      expect(alignment.rmse).toBeLessThan(0.22);

      // A trained splat, however short its budget; what it reached is printed.
      console.warn(
        `[scan] video training: ${metrics.training.iterations} iterations in ${VIDEO_TRAIN_MINUTES} min budget, stopped: ${metrics.training.stopped}; ` +
          `delivered on ${metrics.evaluatedViews} test views: splat ${metrics.psnr} dB / SSIM ${metrics.ssim}`,
      );
      expect(metrics.preview).toBe(false);
      expect(metrics.training.iterations).toBeGreaterThan(0);
      const item = await api("GET", `/item/${itemId}`, { token: owner.idToken });
      expect(item.json.data).toMatchObject({ status: "ready", is_preview: false, file_format: "ply" });
      const credits = await ledger(job.reservationRef!);
      expect([credits.reserved.length, credits.consumed.length, credits.released.length]).toEqual([1, 1, 0]);
      expect(await scanCredits()).toBe(creditsBefore - 1);
      // The uploaded video is kept for a later reprocessing; the working files are not.
      expect(await storage().stat(link.json.data.path)).not.toBeNull();
      await expectWorkFilesRemoved(itemId, scanJobId);
    },
    1_500_000,
  );
});
