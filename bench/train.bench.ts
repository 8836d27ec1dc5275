// The CPU splat trainer (issues 15 and 34), this build beside an earlier one built in the same run. Prints figures
// only; nothing passes or fails on time.
// - The earlier build: TRAIN_BENCH_BASELINE (a git ref; default 37f2a55, the last commit before issue 34's faster
//   kernels) — its native/ is taken with `git archive` into .cache/train-baseline/<ref>/ (git-ignored) and built
//   there once.
// - By default: both builds' sr-train-bench (seconds per forward+backward iteration at 0.1/0.2/0.4 MP with
//   50k/100k/200k gaussians), side by side with the speed-up; this build's also with its baseline-target kernel.
// - With TRAIN_BENCH_WORK=<work folder of a scan whose dense stage ran> (e.g. the CI set's, made by bench/.prep-ciset.ts,
//   or a real capture's kept by `SCAN_REAL_KEEP=1 npm run bench scan-real`): the folder's dense/ inputs and
//   train/{holdout,validation}.txt are copied to a scratch folder (the work folder is never written), then
//   1. both builds train the same TRAIN_BENCH_ITERATIONS iterations (default 600; no time limit, no plateau stop,
//      the same seed): iterations per second and the validation views' PSNR at the dataset's size, side by side;
//   2. this build trains once per budget in TRAIN_BENCH_MINUTES (default "2,5,10") as the worker would (stopping on
//      the validation plateau): minutes used, why it stopped, iterations, validation PSNR.
//   Both with TRAIN_BENCH_THREADS threads (default 2) and the worker's default training settings
//   (app/env.server.ts, workerConfig: long side, SH degree, D-SSIM weight, opacity reset; ROI crop).
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { print } from "./bench-support";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = path.join(root, "native/build/bin");
const build = spawnSync(process.execPath, [path.join(root, "scripts/build-native.mjs")], { stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);

const baselineRef = process.env.TRAIN_BENCH_BASELINE ?? "37f2a55";
const baselineBin = buildBaseline(baselineRef);

/** Builds `ref`'s sr-train and sr-train-bench once into .cache/train-baseline/<ref>/; their folder. */
function buildBaseline(ref: string): string {
  if (!/^[\w./-]+$/.test(ref)) throw new Error(`TRAIN_BENCH_BASELINE must be a git ref, got "${ref}"`);
  const dir = path.join(root, ".cache/train-baseline", ref.replace(/[^\w.-]/g, "_"));
  const out = path.join(dir, "build/bin");
  if (existsSync(path.join(out, "sr-train")) && existsSync(path.join(out, "sr-train-bench"))) return out;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const steps: [string, string[], string][] = [
    ["sh", ["-c", `git archive "${ref}" native | tar -x -C "${dir}"`], root],
    ["cmake", ["-S", path.join(dir, "native"), "-B", path.join(dir, "build"), "-DCMAKE_BUILD_TYPE=Release", "-Wno-dev", "--log-level=WARNING"], root],
    ["cmake", ["--build", path.join(dir, "build"), "--parallel", "2", "--target", "sr-train", "sr-train-bench"], root],
  ];
  for (const [command, args, cwd] of steps) {
    const run = spawnSync(command, args, { cwd, stdio: ["ignore", "ignore", "inherit"] });
    if (run.status !== 0) throw new Error(`building ${ref}'s trainer failed at: ${command} ${args.join(" ")}`);
  }
  return out;
}

const work = process.env.TRAIN_BENCH_WORK;
if (!work) {
  kernelTables();
  process.exit(0);
}

interface KernelRow {
  pixels: string;
  gaussians: string;
  total: number;
  baselineKernel?: number;
}

/** The rows of sr-train-bench's table: pixels, gaussians, fwd+bwd s/it, fwd s[, baseline kernel s/it]. */
function benchRows(program: string): KernelRow[] {
  const run = spawnSync(program, [], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`${program} failed: ${run.stderr}`);
  const rows: KernelRow[] = [];
  for (const line of run.stdout.split("\n")) {
    const m = /^([\d.]+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)(?:\s+([\d.]+))?\s*$/.exec(line);
    if (m) rows.push({ pixels: m[1], gaussians: m[2], total: Number(m[3]), baselineKernel: m[5] ? Number(m[5]) : undefined });
  }
  return rows;
}

function kernelTables() {
  // Interleaved (earlier, this, earlier, this) and the better of two for each: the machine is shared.
  const runs = [benchRows(path.join(baselineBin, "sr-train-bench")), benchRows(path.join(bin, "sr-train-bench"))];
  runs.push(benchRows(path.join(baselineBin, "sr-train-bench")), benchRows(path.join(bin, "sr-train-bench")));
  print(`seconds per forward+backward iteration, ${baselineRef} against this build (best of two runs each, 2 threads)`);
  print("MP     gaussians   earlier s/it   this s/it   speed-up   this, baseline-target kernel");
  runs[1].forEach((row, i) => {
    const earlier = Math.min(runs[0][i].total, runs[2][i].total);
    const now = Math.min(row.total, runs[3][i].total);
    const plain = Math.min(row.baselineKernel ?? Infinity, runs[3][i].baselineKernel ?? Infinity);
    print(
      `${row.pixels.padEnd(6)} ${row.gaussians.padStart(9)}   ${earlier.toFixed(3).padStart(12)}   ${now.toFixed(3).padStart(9)}   ` +
        `${(earlier / now).toFixed(2).padStart(7)}x   ${Number.isFinite(plain) ? `${plain.toFixed(3)} s (${(earlier / plain).toFixed(2)}x)` : "-"}`,
    );
  });
}

const minutes = (process.env.TRAIN_BENCH_MINUTES ?? "2,5,10").split(",").map(Number);
const iterations = Number(process.env.TRAIN_BENCH_ITERATIONS ?? 600);
if (minutes.some((m) => !(m > 0)) || !(Number.isInteger(iterations) && iterations > 0)) {
  console.error("TRAIN_BENCH_MINUTES must be positive numbers separated by commas and TRAIN_BENCH_ITERATIONS a positive integer");
  process.exit(2);
}
const threads = process.env.TRAIN_BENCH_THREADS ?? "2";
const { parseWorkerConfig } = await import("~/env.server");
const worker = parseWorkerConfig({});
const inputs = ["dense/images", "dense/sparse", "dense/fused.ply", "train/holdout.txt"];
for (const needed of inputs) {
  if (!existsSync(path.join(work, needed))) {
    console.error(`${work} has no ${needed}: point TRAIN_BENCH_WORK at a scan work folder whose dense stage ran`);
    process.exit(2);
  }
}

type Metrics = Record<string, number | string | undefined>;

const scratch = mkdtempSync(path.join(os.tmpdir(), "train-bench-"));
try {
  for (const input of [...inputs, "train/validation.txt", "dense/roi.json"]) {
    if (existsSync(path.join(work, input))) cpSync(path.join(work, input), path.join(scratch, input), { recursive: true });
  }
  const at = (name: string) => path.join(scratch, name);
  const optional = (flag: string, file: string) => (existsSync(at(file)) ? [flag, at(file)] : []);
  const train = (program: string, name: string, extra: string[]): Metrics => {
    const out = path.join(scratch, name);
    mkdirSync(out, { recursive: true });
    const run = spawnSync(
      program,
      [
        ...["--images", at("dense/images"), "--sparse", at("dense/sparse"), "--init", at("dense/fused.ply"), "--holdout", at("train/holdout.txt")],
        ...optional("--validation", "train/validation.txt"),
        ...optional("--roi", "dense/roi.json"),
        ...["--output", path.join(out, "model.ply"), "--metrics", path.join(out, "metrics.json"), "--resume", "0", "--threads", threads],
        ...["--train-long-side", String(worker.SCAN_TRAIN_LONG_SIDE), "--sh-degree", String(worker.SCAN_TRAIN_SH_DEGREE)],
        ...["--ssim-weight", String(worker.SCAN_TRAIN_SSIM_WEIGHT), "--opacity-reset-every", String(worker.SCAN_TRAIN_OPACITY_RESET_EVERY)],
        ...["--background", "1e1f22", ...extra],
      ],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    if (run.status !== 0) throw new Error(`${program} failed (${name}, exit ${run.status})`);
    return JSON.parse(readFileSync(path.join(out, "metrics.json"), "utf8")) as Metrics;
  };
  const num = (v: number | string | undefined, digits = 2) => (typeof v === "number" ? v.toFixed(digits) : "-");

  print(`the same ${iterations} iterations on ${work} (${threads} threads): ${baselineRef} against this build`);
  print("build        seconds   iterations/s   gaussians   validation PSNR (dataset size)");
  const same = ["--max-iterations", String(iterations), "--minutes", "600", "--plateau", "0"];
  const rows: Array<[string, Metrics]> = [
    [baselineRef, train(path.join(baselineBin, "sr-train"), "same-earlier", same)],
    ["this", train(path.join(bin, "sr-train"), "same-this", same)],
  ];
  for (const [name, m] of rows) {
    const seconds = Number(m.seconds);
    print(`${name.padEnd(10)} ${num(seconds, 1).padStart(9)}   ${(iterations / seconds).toFixed(2).padStart(12)}   ${String(m.gaussians).padStart(9)}   ${num(m.validationPsnr).padStart(8)} dB`);
  }
  print(`speed-up: ${(Number(rows[0][1].seconds) / Number(rows[1][1].seconds)).toFixed(2)}x`);

  print(`\nthis build as the worker runs it, per budget (stops on the validation views' plateau):`);
  print("budget min   minutes used   stopped      iterations   gaussians   validation PSNR");
  for (const budget of minutes) {
    const m = train(path.join(bin, "sr-train"), `budget-${budget}`, ["--minutes", String(budget), "--max-iterations", String(worker.SCAN_TRAIN_MAX_ITERATIONS)]);
    print(
      `${String(budget).padStart(10)}   ${num(Number(m.seconds) / 60).padStart(12)}   ${String(m.stopped).padEnd(10)}   ${String(m.iterations).padStart(10)}   ` +
        `${String(m.gaussians).padStart(9)}   ${num(m.validationPsnr).padStart(8)} dB`,
    );
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
