// The CPU splat trainer's rasterizer speed (issue 15): seconds per forward+backward iteration at
// 0.1/0.2/0.4 MP with 50k/100k/200k gaussians, and the tiled renderer next to the plain per-pixel
// reference kept for the tests, measured in the same run by native/build/bin/sr-train-bench. Held-out
// PSNR against training time on the CI set is printed by `npm run bench scan`. Prints figures only.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const build = spawnSync(process.execPath, [path.join(root, "scripts/build-native.mjs")], { stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);
const run = spawnSync(path.join(root, "native/build/bin/sr-train-bench"), [], { stdio: "inherit" });
process.exit(run.status ?? 1);
