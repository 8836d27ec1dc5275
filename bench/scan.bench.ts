// The scan pipeline's stage times on this machine's CPU (issues 5, 14, 15): the CI photo set (cat.glb
// rendered from 24 cameras at 800×600) and a short 16:9 orbit video of it, each run twice in this
// process — as the pipeline was before issue 14 (sparse points only: no dense stereo, no training:
// SCAN_DENSE=off, SCAN_TRAIN_MINUTES=0; the Poisson mesh of the sparse points) and as it is now (dense
// stereo, the dense mesh, the CPU-trained splat at SCAN_TRAIN_MINUTES as configured) — and printed side by
// side with the dense figures. Prints figures only (no pass/fail). Run:
//   npm run bench scan                       (both inputs)
//   npx tsx bench/scan.bench.ts images       (or: video)
//   SCAN_BENCH_PHOTOS=40 SCAN_BENCH_SIZE=1600x1200 npx tsx bench/scan.bench.ts images   (a larger photo set)
// Storage and working files go to a temporary folder; nothing touches a database.
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { orbitVideo, renderedPhotoSet } from "../tests/setup/scan-media";
import { print } from "./bench-support";

const root = mkdtempSync(path.join(os.tmpdir(), "scanroom-bench-"));
process.env.STORAGE_DIR = path.join(root, "storage");
process.env.SCAN_WORK_DIR = path.join(root, "work");
process.env.LOG_LEVEL = "warn";

const { storage } = await import("~/storage/index.server");
const { parseWorkerConfig } = await import("~/env.server");
const { runStages } = await import("~/worker/pipeline.server");
const { STAGE_NAMES } = await import("~/domain/scan-progress");

const which = process.argv[2] ?? "both";
const SPARSE_ONLY = { SCAN_DENSE: "off", SCAN_TRAIN_MINUTES: "0" };

type Run = Awaited<ReturnType<typeof runStages>> & { seconds: number };

async function run(kind: "image" | "video", put: (itemId: string) => Promise<{ inputPath: string; duration: number | null }>, env: Record<string, string>): Promise<Run> {
  const config = parseWorkerConfig({ ...process.env, ...env });
  const itemId = randomUUID();
  const { inputPath, duration } = await put(itemId);
  const started = Date.now();
  const outcome = await runStages({
    job: { id: randomUUID(), itemId, inputKind: kind, inputPath, duration, attempt: 1 },
    config,
    signal: new AbortController().signal,
    reporter: { stage: () => undefined, progress: () => undefined },
  });
  return { ...outcome, seconds: (Date.now() - started) / 1000 };
}

const fmt = (value: number | null | undefined, digits = 1) => (typeof value === "number" ? value.toFixed(digits) : "—");

async function bench(label: string, kind: "image" | "video", put: (itemId: string) => Promise<{ inputPath: string; duration: number | null }>) {
  const before = await run(kind, put, SPARSE_ONLY);
  const now = await run(kind, put, {});
  const threads = parseWorkerConfig(process.env).SCAN_THREADS;
  print(`\n${label} (${threads} threads)`);
  print(`  ${"stage".padEnd(11)} ${"sparse only".padStart(12)} ${"dense+mesh+train".padStart(17)}`);
  for (const name of STAGE_NAMES) {
    const a = before.timings[name], b = now.timings[name];
    if (a || b) print(`  ${name.padEnd(11)} ${`${fmt(a?.seconds)} s`.padStart(12)} ${`${fmt(b?.seconds)} s`.padStart(17)}`);
  }
  print(`  ${"end to end".padEnd(11)} ${`${fmt(before.seconds)} s`.padStart(12)} ${`${fmt(now.seconds)} s`.padStart(17)}   (ingest → export)`);
  print(`  whole scan before training: ${fmt(now.seconds - (now.timings.splat?.seconds ?? 0) - (now.timings.evaluation?.seconds ?? 0) - (now.timings.export?.seconds ?? 0))} s (ingest → mesh)`);
  const mapping = now.results.mapping as { registered: number; total: number; points: number; meanReprojectionError: number };
  print(`  registered ${mapping.registered}/${mapping.total}, ${mapping.points} sparse points, mean reprojection ${mapping.meanReprojectionError} px`);
  if (now.kind !== "finished" || before.kind !== "finished") {
    print("  stopped at the quality gate");
    return;
  }
  const dense = now.results.dense as { skipped: string | null; points?: number; fusedPoints?: number; images?: number; workingSize?: unknown; seconds?: Record<string, number> } | undefined;
  const exported = now.results.export as { glb: { vertices: number; triangles: number; bytes: number } | null; meshSkipped: string | null };
  const splat = (r: Run) => r.results.splat as { splats: number; trained: boolean; iterations?: number; minutes?: number };
  const evaluation = (r: Run) => r.results.evaluation as { psnr: number | null; ssim: number | null; evaluatedViews: number };
  print(`  dense: ${dense?.skipped ? `skipped (${dense.skipped})` : `${dense?.fusedPoints} fused points, ${dense?.points} kept after cropping; ${JSON.stringify(dense?.seconds ?? {})}`}`);
  print(`  mesh:  ${exported.glb ? `${exported.glb.triangles} triangles, ${exported.glb.vertices} vertices, ${exported.glb.bytes} bytes (GLB)` : `skipped (${exported.meshSkipped})`}`);
  print(`  splat: sparse-only ${splat(before).splats} splats (not trained); now ${splat(now).splats} splats, ${splat(now).trained ? `trained ${splat(now).iterations} iterations in ${fmt(splat(now).minutes)} min` : "not trained"}`);
  print(`  held-out PSNR/SSIM: sparse-only ${fmt(evaluation(before).psnr, 2)} dB; now ${fmt(evaluation(now).psnr, 2)} dB / ${fmt(evaluation(now).ssim, 3)} on ${evaluation(now).evaluatedViews} views`);
}

try {
  if (which === "both" || which === "images") {
    const [width, height] = (process.env.SCAN_BENCH_SIZE ?? "800x600").split("x").map(Number);
    const count = Number(process.env.SCAN_BENCH_PHOTOS ?? 24);
    if (!(count >= 8 && width >= 64 && height >= 64)) throw new Error("SCAN_BENCH_PHOTOS must be at least 8 and SCAN_BENCH_SIZE like 1600x1200");
    const set = await renderedPhotoSet({ count, width, height });
    await bench(`image set: ${set.files.length} renders of cat.glb, ${width}×${height}`, "image", async (itemId) => {
      for (const file of set.files) await storage().write(`items/${itemId}/images/${path.basename(file)}`, readFileSync(file));
      return { inputPath: `items/${itemId}/images/`, duration: null };
    });
  }
  if (which === "both" || which === "video") {
    const video = await orbitVideo();
    await bench(`video: ${video.duration.toFixed(0)} s orbit of cat.glb, ${video.width}×${video.height} H.264`, "video", async (itemId) => {
      const key = `items/${itemId}/video/${randomUUID()}.video`;
      await storage().write(key, readFileSync(video.path));
      return { inputPath: key, duration: video.duration };
    });
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
