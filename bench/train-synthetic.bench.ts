// The CPU splat trainer on synthetic scenes made by native/build/bin/sr-train-scene (a ground-truth splat —
// a striped sphere on a checkered floor — photographed from a ring of cameras; the points to start from are
// its centres jittered plus stray "floater" points). Prints figures only; nothing passes or fails on them.
// - Opacity reset: held-out PSNR after the same number of iterations (TRAIN_SYNTH_ITERATIONS, default 600;
//   the iteration cap, not the clock, sets the schedule, so both runs reset and densify at the same
//   iterations) with --opacity-reset-every 0.175 and with 0 (none, the worker's default), on 32 frames of 320×240
//   (10,000 ground-truth gaussians; 3,000 jittered points and 800 floaters to start from).
// - Memory: peak resident set size (/usr/bin/time -v) of sr-train on TRAIN_SYNTH_FRAMES frames (default 300)
//   of 640×480 (the dense stage's working size) at the worker's training long side, starting from
//   TRAIN_SYNTH_POINTS points (default 400,000: the densification cap) and running 75 iterations (one
//   densification, at iteration 50).
// TRAIN_BENCH_THREADS threads (default 2), as bench/train.bench.ts.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = path.join(root, "native/build/bin");
const build = spawnSync(process.execPath, [path.join(root, "scripts/build-native.mjs")], { stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);

const positive = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`${name} must be a positive whole number, got "${process.env[name]}"`);
    process.exit(2);
  }
  return value;
};
const iterations = positive("TRAIN_SYNTH_ITERATIONS", 600);
const frames = positive("TRAIN_SYNTH_FRAMES", 300);
const points = positive("TRAIN_SYNTH_POINTS", 400_000);
const threads = String(positive("TRAIN_BENCH_THREADS", 2));
const { parseWorkerConfig } = await import("~/env.server");
const worker = parseWorkerConfig({});

/** Runs a native program to the end; its stderr (where /usr/bin/time reports) is returned. */
function run(command: string, args: string[], what: string): string {
  const result = spawnSync(command, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    process.stderr.write(result.stderr);
    throw new Error(`${what} failed (exit ${result.status})`);
  }
  return result.stderr;
}

/** sr-train's arguments for a scene folder written by sr-train-scene, with the worker's loss and SH settings (`out` is made). */
function trainArgs(scene: string, out: string, extra: string[]): string[] {
  mkdirSync(out, { recursive: true });
  return [
    ...["--images", path.join(scene, "images"), "--sparse", path.join(scene, "sparse"), "--init", path.join(scene, "points.ply")],
    ...["--holdout", path.join(scene, "holdout.txt"), "--output", path.join(out, "model.ply"), "--metrics", path.join(out, "metrics.json")],
    ...["--threads", threads, "--sh-degree", String(worker.SCAN_TRAIN_SH_DEGREE), "--ssim-weight", String(worker.SCAN_TRAIN_SSIM_WEIGHT)],
    ...extra,
  ];
}

const metricsOf = (out: string) => JSON.parse(readFileSync(path.join(out, "metrics.json"), "utf8")) as Record<string, number>;

const scratch = mkdtempSync(path.join(os.tmpdir(), "train-synthetic-"));
try {
  const scene = path.join(scratch, "reset-scene");
  run(
    path.join(bin, "sr-train-scene"),
    [...["--output", scene, "--frames", "32", "--width", "320", "--height", "240"], ...["--gaussians", "10000", "--init-points", "3000", "--floaters", "800"]],
    "sr-train-scene",
  );
  process.stdout.write(`opacity reset: held-out PSNR after ${iterations} iterations, 32 synthetic frames 320×240 (4 held out), ${threads} threads\n`);
  process.stdout.write("reset every  resets  gaussians  train PSNR  held-out PSNR\n");
  // Resets every 0.175 of the budget (a quarter of the densification window, as the paper spaces them) against
  // none (the worker's default, SCAN_TRAIN_OPACITY_RESET_EVERY = 0).
  for (const every of [0.175, 0]) {
    const out = path.join(scratch, `reset-${every}`);
    run(
      path.join(bin, "sr-train"),
      trainArgs(scene, out, ["--max-iterations", String(iterations), "--minutes", "600", "--opacity-reset-every", String(every), "--train-long-side", "320"]),
      "sr-train",
    );
    const m = metricsOf(out);
    process.stdout.write(
      `${String(every).padStart(11)}  ${String(m.opacityResets).padStart(6)}  ${String(m.gaussians).padStart(9)}  ` +
        `${m.trainPsnr.toFixed(2).padStart(10)}  ${m.heldOutPsnr.toFixed(2).padStart(13)}\n`,
    );
  }

  if (!existsSync("/usr/bin/time")) {
    process.stdout.write("memory: skipped (no /usr/bin/time)\n");
  } else {
    const big = path.join(scratch, "memory-scene");
    run(path.join(bin, "sr-train-scene"), ["--output", big, "--frames", String(frames), "--init-points", String(points)], "sr-train-scene");
    const out = path.join(scratch, "memory");
    const report = run(
      "/usr/bin/time",
      ["-v", path.join(bin, "sr-train"), ...trainArgs(big, out, ["--max-iterations", "75", "--minutes", "600", "--train-long-side", String(worker.SCAN_TRAIN_LONG_SIDE)])],
      "sr-train under /usr/bin/time",
    );
    const kb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(report)?.[1]);
    const m = metricsOf(out);
    process.stdout.write(
      `memory: ${frames} frames 640×480 trained at long side ${worker.SCAN_TRAIN_LONG_SIDE}, ${m.iterations} iterations, ` +
        `${m.gaussians} gaussians at the end: peak RSS ${(kb / 1024).toFixed(0)} MiB (issue 15's limit: 4096 MiB)\n`,
    );
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
