// The whole scan pipeline on public real captures (issue 38; bench/real-captures.ts says where they come from
// and how to put them in the git-ignored SCAN_REAL_DIR). For each set it prints the time of every stage, the
// cameras' accuracy against the set's known cameras (similarity-aligned: position RMSE, rotation error), the
// dense points, the training, and the delivered figures — splat and mesh drawn from the test views (and the
// validation views, which defaults are tuned on) over the whole frame on the viewer's background — and it copies
// the photo | splat | mesh pictures of every evaluated view to .cache/bench/scan-real/<set>/. Figures only, no
// pass/fail. A video set (issue 34 item 4) goes in as a video scan and prints its frames too. Every set prints the
// peak resident memory of the worker with every tool it runs (sampled each second) and the stage at that peak.
// Run:
//   npm run bench scan-real                                   (every set found)
//   SCAN_REAL_SETS=fox npx tsx bench/scan-real.bench.ts        (one set)
// Worker settings come from the environment as for a worker (SCAN_TRAIN_MINUTES, …). Storage and working files
// go to a temporary folder (SCAN_REAL_KEEP=1 keeps it; SCAN_REAL_ROOT=<that folder> runs again in it, so stages
// whose inputs, parameters and version are unchanged are not run again — for tuning a later stage); nothing touches
// a database.
import { randomUUID } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { descendantPids, residentMiB } from "../tests/setup/processes";
import { alignSimilarity } from "../tests/setup/similarity";
import { print } from "./bench-support";
import { REAL_CAPTURE_DIR, realCaptures, type RealCapture } from "./real-captures";
import type { MatchingResult } from "~/worker/stages/colmap.server";


const root = process.env.SCAN_REAL_ROOT ? path.resolve(process.env.SCAN_REAL_ROOT) : mkdtempSync(path.join(os.tmpdir(), "scanroom-real-"));
process.env.STORAGE_DIR = path.join(root, "storage");
process.env.SCAN_WORK_DIR = path.join(root, "work");
process.env.LOG_LEVEL = "warn";
const OUT = path.resolve(".cache/bench/scan-real");

const { storage } = await import("~/storage/index.server");
const { parseWorkerConfig } = await import("~/env.server");
const { runStages } = await import("~/worker/pipeline.server");
const { STAGE_NAMES } = await import("~/domain/scan-progress");
const { cameraCenter, parseImages, rotationMatrix } = await import("~/worker/colmap-model");
const { probeVideoStream } = await import("~/tools/ffprobe.server");

/** Peak resident memory of this process and every process below it, sampled each second, with the stage then. */
function memoryWatch() {
  let stage = "start";
  let peak = { mib: 0, stage };
  const timer = setInterval(() => {
    const mib = [process.pid, ...descendantPids(process.pid)].reduce((sum, pid) => sum + (residentMiB(pid) ?? 0), 0);
    if (mib > peak.mib) peak = { mib, stage };
  }, 1000);
  return {
    stage: (name: string) => (stage = name),
    stop: () => (clearInterval(timer), peak),
  };
}

const fmt = (value: number | null | undefined, digits = 1) => (typeof value === "number" && Number.isFinite(value) ? value.toFixed(digits) : "—");

/** Rotation angle (degrees) between two row-major 3×3 rotations. */
function angleBetween(a: number[], b: number[]): number {
  // trace(aᵀ b)
  let trace = 0;
  for (let i = 0; i < 3; i++) for (let k = 0; k < 3; k++) trace += a[k * 3 + i] * b[k * 3 + i];
  return (Math.acos(Math.min(1, Math.max(-1, (trace - 1) / 2))) * 180) / Math.PI;
}

/** Our cameras against the set's: centres aligned by a similarity, then each camera's position and rotation error. */
function cameraAccuracy(capture: RealCapture, uploadedAs: Map<string, string>, imagesTxt: string) {
  if (!capture.truth) return null;
  const ours = parseImages(imagesTxt).filter((image) => capture.truth!.has(uploadedAs.get(image.name) ?? ""));
  if (ours.length < 3) return null;
  const truth = ours.map((image) => capture.truth!.get(uploadedAs.get(image.name)!)!);
  const alignment = alignSimilarity(ours.map(cameraCenter), truth.map((t) => t.centre));
  const A = alignment.rotation;
  const rotations = ours.map((image, n) => {
    // Our camera → world is Rᵀ; in the truth's frame, A · Rᵀ.
    const r = rotationMatrix(image.q);
    const mine = [0, 1, 2].flatMap((i) => [0, 1, 2].map((j) => A[i][0] * r[j * 3] + A[i][1] * r[j * 3 + 1] + A[i][2] * r[j * 3 + 2]));
    return angleBetween(mine, truth[n].cameraToWorld);
  });
  const sorted = [...rotations].sort((a, b) => a - b);
  return { cameras: ours.length, rmse: alignment.rmse, maxError: alignment.maxError, medianRotation: sorted[sorted.length >> 1], maxRotation: sorted[sorted.length - 1] };
}

/**
 * The splat's PSNR where the mesh draws nothing (its panel shows the bare background): sky and far background,
 * what the sky splats are for (issue 38 item 8). From the photo | splat | mesh pictures.
 */
async function beyondTheMesh(dir: string): Promise<{ psnr: number; share: number } | null> {
  const { default: sharp } = await import("sharp");
  const background = [0x1e, 0x1f, 0x22];
  let sum = 0, count = 0, pixels = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".png"))) {
    const { data, info } = await sharp(path.join(dir, file)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    if (info.width % 3 !== 0) continue;
    const w = info.width / 3;
    for (let y = 0; y < info.height; y++) {
      for (let x = 0; x < w; x++) {
        const at = (panel: number) => (y * info.width + panel * w + x) * 3;
        pixels++;
        if (![0, 1, 2].every((c) => data[at(2) + c] === background[c])) continue;
        for (let c = 0; c < 3; c++) sum += ((data[at(1) + c] - data[at(0) + c]) / 255) ** 2;
        count++;
      }
    }
  }
  return count ? { psnr: -10 * Math.log10(sum / (3 * count)), share: count / pixels } : null;
}

async function bench(capture: RealCapture) {
  const config = parseWorkerConfig(process.env);
  const itemId = `real-${capture.name}`;
  // Uploaded as the site names them (image-001.jpg, …), in capture order; a video as the upload dialog stores it.
  const uploadedAs = new Map<string, string>();
  let input: { kind: "image" | "video"; path: string; duration: number | null };
  if (capture.video) {
    const probe = await probeVideoStream({ bin: config.FFPROBE_BIN, input: capture.video });
    if (!probe) throw new Error(`${capture.video} is not a video ffprobe reads`);
    const key = `items/${itemId}/video/${randomUUID()}.video`;
    await storage().write(key, readFileSync(capture.video));
    input = { kind: "video", path: key, duration: probe.duration };
    print(`\n${capture.name}: ${probe.duration.toFixed(1)} s video, ${probe.width}×${probe.height}`);
  } else {
    for (const [i, photo] of capture.photos.entries()) {
      const name = `image-${String(i + 1).padStart(3, "0")}${path.extname(photo).toLowerCase()}`;
      uploadedAs.set(name, path.basename(photo));
      await storage().write(`items/${itemId}/images/${name}`, readFileSync(photo));
    }
    input = { kind: "image", path: `items/${itemId}/images/`, duration: null };
  }
  const jobId = `job-${capture.name}`;
  const memory = memoryWatch();
  const started = Date.now();
  const outcome = await runStages({
    job: { id: jobId, itemId, inputKind: input.kind, inputPath: input.path, duration: input.duration, attempt: 1 },
    config,
    signal: new AbortController().signal,
    reporter: {
      stage: (name) => {
        memory.stage(name);
        print(`  ${new Date().toISOString().slice(11, 19)} ${name}`);
      },
      progress: () => undefined,
    },
  });
  const peak = memory.stop();
  const seconds = (Date.now() - started) / 1000;
  const work = path.join(root, "work", jobId);
  const what = capture.video ? `${(outcome.results.frames as { frames: string[] }).frames.length} frames from the video` : `${capture.photos.length} photos`;
  print(`\n${capture.name}: ${what} (${capture.source}; ${capture.licence}), ${config.SCAN_THREADS} threads, training budget ${config.SCAN_TRAIN_MINUTES} min`);
  for (const name of STAGE_NAMES) {
    const timing = outcome.timings[name];
    if (timing) print(`  ${name.padEnd(11)} ${`${fmt(timing.seconds)} s`.padStart(9)}`);
  }
  print(`  ${"end to end".padEnd(11)} ${`${fmt(seconds)} s`.padStart(9)}`);
  print(`  peak memory: ${fmt(peak.mib / 1024, 2)} GiB (the worker and its tools, during ${peak.stage})`);
  const matching = outcome.results.matching as MatchingResult;
  const prepass = matching.prepass ? ` (a pre-pass verified ${matching.prepass.verified} of ${matching.prepass.candidates} pairs)` : "";
  print(`  matching: ${matching.mode}${matching.pairs === null ? "" : `, ${matching.pairs} pairs at full detail`}${prepass}`);
  const mapping = outcome.results.mapping as { registered: number; total: number; points: number; meanReprojectionError: number };
  print(`  cameras: ${mapping.registered}/${mapping.total} placed, ${mapping.points} sparse points, mean reprojection ${fmt(mapping.meanReprojectionError, 3)} px`);
  const accuracy = capture.truth ? cameraAccuracy(capture, uploadedAs, readFileSync(path.join(work, "sparse-txt/images.txt"), "utf8")) : null;
  if (accuracy) {
    print(
      `  against ${capture.truthKind} (${accuracy.cameras} cameras, similarity-aligned): position RMSE ${fmt(accuracy.rmse, 4)} ${capture.units} (max ${fmt(accuracy.maxError, 4)}), ` +
        `rotation median ${fmt(accuracy.medianRotation, 3)}° (max ${fmt(accuracy.maxRotation, 3)}°)`,
    );
  }
  if (outcome.kind !== "finished") {
    print("  stopped at the quality gate");
    return;
  }
  const dense = outcome.results.dense as { skipped: string | null; points?: number; fusedPoints?: number };
  const splat = outcome.results.splat as { splats: number; trained: boolean; iterations?: number; minutes?: number; log?: { validationPsnr: number | null } };
  const mesh = outcome.results.mesh as { skipped: string | null; triangles?: number; textureSize?: [number, number] };
  const evaluation = outcome.results.evaluation as {
    psnr: number | null;
    ssim: number | null;
    splatCoverage: number | null;
    meshPsnr: number | null;
    meshSsim: number | null;
    meshCoverage: number | null;
    evaluatedViews: number;
    validation: { views: number; splat: { psnr: number; ssim: number; coverage: number } | null; mesh: { psnr: number; ssim: number; coverage: number } | null };
  };
  print(`  dense: ${dense.skipped ? `skipped (${dense.skipped})` : `${dense.fusedPoints} fused points, ${dense.points} kept in the region`}`);
  print(`  mesh: ${mesh.skipped ? `skipped (${mesh.skipped})` : `${mesh.triangles} triangles, ${mesh.textureSize?.join("×")} texture`}`);
  print(`  splat: ${splat.splats} splats, ${splat.trained ? `${splat.iterations} iterations in ${fmt(splat.minutes, 2)} min (trainer's own validation PSNR ${fmt(splat.log?.validationPsnr, 2)} dB)` : "not trained"}`);
  print(
    `  delivered, test views (${evaluation.evaluatedViews}): splat ${fmt(evaluation.psnr, 2)} dB / SSIM ${fmt(evaluation.ssim, 3)} / covers ${fmt((evaluation.splatCoverage ?? NaN) * 100, 1)} %; ` +
      `mesh ${fmt(evaluation.meshPsnr, 2)} dB / SSIM ${fmt(evaluation.meshSsim, 3)} / covers ${fmt((evaluation.meshCoverage ?? NaN) * 100, 1)} %`,
  );
  const v = evaluation.validation;
  print(
    `  delivered, validation views (${v.views}): splat ${fmt(v.splat?.psnr, 2)} dB / SSIM ${fmt(v.splat?.ssim, 3)}; mesh ${fmt(v.mesh?.psnr, 2)} dB / SSIM ${fmt(v.mesh?.ssim, 3)}`,
  );
  const pictures = path.join(work, "evaluation/views");
  const target = path.join(OUT, capture.name);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  for (const file of readdirSync(pictures)) copyFileSync(path.join(pictures, file), path.join(target, file));
  print(`  photo | splat | mesh of each evaluated view: ${path.relative(process.cwd(), target)}/`);
  const beyond = await beyondTheMesh(pictures);
  if (beyond) print(`  beyond the measured surface (where the mesh draws nothing: sky, far background; ${fmt(beyond.share * 100, 1)} % of the frames): splat ${fmt(beyond.psnr, 2)} dB`);
}

try {
  const captures = realCaptures();
  if (captures.length === 0) print(`no real capture under ${REAL_CAPTURE_DIR} (bench/real-captures.ts says which and where)`);
  for (const capture of captures) await bench(capture);
} finally {
  if (!process.env.SCAN_REAL_KEEP && !process.env.SCAN_REAL_ROOT) rmSync(root, { recursive: true, force: true });
  else print(`working files kept in ${root}`);
}
