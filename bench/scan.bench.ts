// The scan pipeline's stage times on this machine's CPU (issue 5): the CI photo set (cat.glb rendered
// from 24 cameras at 800×600) and a short 16:9 orbit video of it, each run through every stage from
// ingest to export, plus the end-to-end time. Prints figures only (no pass/fail). Run:
//   npx tsx bench/scan.bench.ts            (both inputs)
//   npx tsx bench/scan.bench.ts images     (or: video)
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
const { parseWorkerConfig } = await import("~/worker/config.server");
const { runStages } = await import("~/worker/pipeline.server");
const { STAGE_NAMES } = await import("~/worker/stage");

const config = parseWorkerConfig(process.env);
const which = process.argv[2] ?? "both";

async function bench(label: string, kind: "image" | "video", put: (itemId: string) => Promise<{ inputPath: string; duration: number | null }>) {
  const itemId = randomUUID();
  const { inputPath, duration } = await put(itemId);
  const started = Date.now();
  const outcome = await runStages({
    job: { id: randomUUID(), itemId, inputKind: kind, inputPath, duration, attempt: 1 },
    config,
    signal: new AbortController().signal,
    reporter: { stage: () => undefined, progress: () => undefined },
  });
  const total = (Date.now() - started) / 1000;
  print(`\n${label} (${config.SCAN_THREADS} threads)`);
  for (const name of STAGE_NAMES) {
    const timing = outcome.timings[name];
    if (timing) print(`  ${name.padEnd(11)} ${timing.seconds.toFixed(1).padStart(7)} s`);
  }
  print(`  ${"end to end".padEnd(11)} ${total.toFixed(1).padStart(7)} s  (ingest → export; publish is storage writes and one transaction)`);
  const mapping = outcome.results.mapping as { registered: number; total: number; points: number; meanReprojectionError: number };
  print(`  registered ${mapping.registered}/${mapping.total}, ${mapping.points} points, mean reprojection ${mapping.meanReprojectionError} px`);
  if (outcome.kind === "finished") {
    const exported = outcome.results.export as { ply: { splats: number; bytes: number }; glb: { vertices: number; triangles: number } | null; meshSkipped: string | null };
    print(`  preview splat ${exported.ply.splats} splats (${exported.ply.bytes} bytes); GLB ${exported.glb ? `${exported.glb.vertices} vertices, ${exported.glb.triangles} triangles` : `skipped: ${exported.meshSkipped}`}`);
  } else print("  stopped at the quality gate");
}

try {
  if (which === "both" || which === "images") {
    const set = await renderedPhotoSet();
    await bench(`image set: ${set.files.length} renders of cat.glb, 800×600`, "image", async (itemId) => {
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
