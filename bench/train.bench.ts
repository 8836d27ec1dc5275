// The CPU splat trainer (issue 15). Prints figures only; nothing passes or fails on time.
// - By default: native/build/bin/sr-train-bench, seconds per forward+backward iteration at
//   0.1/0.2/0.4 MP with 50k/100k/200k gaussians, and the tiled renderer next to the plain per-pixel
//   reference kept for the tests.
// - With TRAIN_BENCH_WORK=<work folder of a scan whose dense stage ran> (e.g. the CI set's, made by
//   bench/.prep-ciset.ts): held-out PSNR against training minutes, from sr-train's metrics JSON (it
//   has no SSIM). The folder's dense/ inputs and train/holdout.txt are copied to a scratch folder
//   (the work folder is never written) and sr-train runs there once per budget in
//   TRAIN_BENCH_MINUTES (default "1,2,4,8,15"), with TRAIN_BENCH_THREADS threads (default 2) and the
//   worker's default training settings (app/worker/config.server.ts: long side, SH degree, D-SSIM weight,
//   opacity reset; ROI crop), one budget after another.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = path.join(root, "native/build/bin");
const build = spawnSync(process.execPath, [path.join(root, "scripts/build-native.mjs")], { stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);

const work = process.env.TRAIN_BENCH_WORK;
if (!work) {
  const run = spawnSync(path.join(bin, "sr-train-bench"), [], { stdio: "inherit" });
  process.exit(run.status ?? 1);
}

const minutes = (process.env.TRAIN_BENCH_MINUTES ?? "1,2,4,8,15").split(",").map(Number);
if (minutes.some((m) => !(m > 0))) {
  console.error(`TRAIN_BENCH_MINUTES must be positive numbers separated by commas, got "${process.env.TRAIN_BENCH_MINUTES}"`);
  process.exit(2);
}
const threads = process.env.TRAIN_BENCH_THREADS ?? "2";
const { parseWorkerConfig } = await import("~/worker/config.server");
const worker = parseWorkerConfig({});
const inputs = ["dense/images", "dense/sparse", "dense/fused.ply", "train/holdout.txt"];
for (const needed of inputs) {
  if (!existsSync(path.join(work, needed))) {
    console.error(`${work} has no ${needed}: point TRAIN_BENCH_WORK at a scan work folder whose dense stage ran`);
    process.exit(2);
  }
}

const scratch = mkdtempSync(path.join(os.tmpdir(), "train-bench-"));
try {
  for (const input of [...inputs, "dense/roi.json"]) {
    if (existsSync(path.join(work, input))) cpSync(path.join(work, input), path.join(scratch, input), { recursive: true });
  }
  const roi = existsSync(path.join(scratch, "dense/roi.json")) ? ["--roi", path.join(scratch, "dense/roi.json")] : [];
  process.stdout.write(`held-out PSNR against training minutes on ${work} (${threads} threads)\n`);
  process.stdout.write("minutes  iterations  gaussians  train PSNR  held-out PSNR\n");
  for (const budget of minutes) {
    const out = path.join(scratch, `run-${budget}`);
    mkdirSync(out, { recursive: true });
    const at = (name: string) => path.join(scratch, name);
    const run = spawnSync(
      path.join(bin, "sr-train"),
      [
        ...["--images", at("dense/images"), "--sparse", at("dense/sparse"), "--init", at("dense/fused.ply")],
        ...["--holdout", at("train/holdout.txt"), "--output", path.join(out, "model.ply"), "--renders", path.join(out, "renders")],
        ...["--metrics", path.join(out, "metrics.json"), "--checkpoint", path.join(out, "checkpoint.bin"), "--resume", "0"],
        ...["--minutes", String(budget), "--train-long-side", String(worker.SCAN_TRAIN_LONG_SIDE), "--threads", threads, ...roi],
        ...["--sh-degree", String(worker.SCAN_TRAIN_SH_DEGREE), "--ssim-weight", String(worker.SCAN_TRAIN_SSIM_WEIGHT)],
        ...["--opacity-reset-every", String(worker.SCAN_TRAIN_OPACITY_RESET_EVERY)],
      ],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    if (run.status !== 0) {
      console.error(`sr-train failed at ${budget} min (exit ${run.status})`);
      process.exitCode = 1;
      break;
    }
    const m = JSON.parse(readFileSync(path.join(out, "metrics.json"), "utf8")) as Record<string, number | undefined>;
    const fmt = (v: number | undefined) => (v === undefined ? "-" : v.toFixed(2));
    process.stdout.write(
      `${String(budget).padStart(7)}  ${String(m.iterations).padStart(10)}  ${String(m.gaussians).padStart(9)}  ` +
        `${fmt(m.trainPsnr).padStart(10)}  ${fmt(m.heldOutPsnr).padStart(13)}\n`,
    );
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
