import { execFile } from "node:child_process";
import { access, constants } from "node:fs/promises";
import path from "node:path";
import type { WorkerConfig } from "~/env.server";

/**
 * The one list of our own programs (native/, built into SCANROOM_NATIVE_BIN by
 * `node scripts/build-native.mjs`) that a scan needs. A worker without one of them does not take
 * scans (issue 17 item 1); add a program here when a stage starts calling it with ctx.native().
 */
export const REQUIRED_NATIVE_PROGRAMS = ["sr-stereo", "sr-texture", "sr-train"] as const;

/** A tool a scan needs that this machine lacks, said so that an operator can act on it. */
export interface MissingTool {
  name: string;
  detail: string;
}

function runs(command: string, args: string[]): Promise<boolean> {
  return new Promise((resolve) =>
    execFile(command, args, { timeout: 15_000, env: { ...process.env, QT_QPA_PLATFORM: "offscreen" } }, (error, stdout, stderr) =>
      // COLMAP's `help` exits non-zero on some builds: printing anything means it is there.
      resolve(!error || Boolean(stdout) || Boolean(stderr)),
    ),
  );
}

async function executable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** What this machine lacks of the scan tools (empty: scans can run here). */
export async function findMissingScanTools(
  config: Pick<WorkerConfig, "FFMPEG_BIN" | "FFPROBE_BIN" | "COLMAP_BIN" | "SCANROOM_NATIVE_BIN">,
): Promise<MissingTool[]> {
  const external = [
    ["ffmpeg", config.FFMPEG_BIN, ["-version"], "FFMPEG_BIN"],
    ["ffprobe", config.FFPROBE_BIN, ["-version"], "FFPROBE_BIN"],
    ["colmap", config.COLMAP_BIN, ["help"], "COLMAP_BIN"],
  ] as const;
  const missing: MissingTool[] = [];
  for (const [name, command, args, variable] of external) {
    if (!(await runs(command, [...args]))) {
      missing.push({ name, detail: `${name} (${command}) was not found: install it (Debian: scripts/setup-machine.sh) or set ${variable}` });
    }
  }
  for (const program of REQUIRED_NATIVE_PROGRAMS) {
    const file = path.join(config.SCANROOM_NATIVE_BIN, program);
    if (!(await executable(file))) {
      missing.push({ name: program, detail: `${program} is not built (${file}): run node scripts/build-native.mjs` });
    }
  }
  return missing;
}
