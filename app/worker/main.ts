// `npm run worker`: one scan worker (DESIGN §1, §5). Run as many as you like, on any machine that
// reaches the database and the storage; `npm start` runs one next to the server. SIGTERM/SIGINT
// hand a running scan back to the queue, so another worker resumes it from its last finished stage.
import { execFile } from "node:child_process";
import { disconnectDb } from "~/db.server";
import { startBillingSchedule } from "~/jobs/billing-schedule.server";
import { stopQueue } from "~/jobs/queue.server";
import { logger } from "~/lib/logger.server";
import { workerConfig } from "./config.server";
import { startScanWorker } from "./worker.server";

function toolVersion(command: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) =>
    execFile(command, args, { timeout: 15_000, env: { ...process.env, QT_QPA_PLATFORM: "offscreen" } }, (error, stdout, stderr) =>
      resolve(error && !stdout && !stderr ? null : `${stdout}${stderr}`.split("\n").find((l) => l.trim()) ?? ""),
    ),
  );
}

async function main() {
  const config = workerConfig();
  for (const [name, command, args] of [
    ["ffmpeg", config.FFMPEG_BIN, ["-version"]],
    ["COLMAP", config.COLMAP_BIN, ["help"]],
  ] as const) {
    const version = await toolVersion(command, [...args]);
    if (version === null) throw new Error(`${name} (${command}) was not found: install it (Debian: apt-get install -y ffmpeg colmap)`);
  }
  const worker = await startScanWorker({ config });
  // The hourly billing-period reset (docs/decisions/009) runs wherever workers run.
  const billing = await startBillingSchedule();
  logger.info("scan worker ready", {
    concurrency: config.SCAN_WORKER_CONCURRENCY,
    threads: config.SCAN_THREADS,
    trainer: config.SCAN_TRAINER_COMMAND ? "configured" : "none (preview splats)",
    workDir: config.workDir,
  });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info("scan worker stopping", { signal });
    await worker.stop();
    await billing.stop();
    await stopQueue();
    await disconnectDb();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((error) => {
  process.stderr.write(`[scan worker] could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
