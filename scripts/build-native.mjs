#!/usr/bin/env node
// Builds the reconstruction engine (native/, DESIGN §6) into native/build with CMake: incremental,
// so a second run takes a second. Used by `npm start`, `npm test` and `npm run native:build`.
// Exits non-zero with the missing tool named when the toolchain is absent (scripts/setup-machine.sh
// installs it on Debian).
import { spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const source = path.join(root, "native");
const build = process.env.SCANROOM_NATIVE_BUILD_DIR ?? path.join(source, "build");

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit" });
  if (result.error?.code === "ENOENT") {
    console.error(`[scanroom] ${command} was not found: run scripts/setup-machine.sh (Debian: cmake, g++, libeigen3-dev, libstb-dev, libgtest-dev)`);
    process.exit(127);
  }
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const jobs = String(Math.max(1, os.availableParallelism?.() ?? os.cpus().length));
run("cmake", ["-S", source, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-Wno-dev", "--log-level=WARNING"]);
run("cmake", ["--build", build, "--parallel", jobs]);
