// `npm run worker`: one scan worker (DESIGN §1, §5). Run as many as you like, on any machine that
// reaches the database and the storage; `npm start` runs one next to the server. SIGTERM/SIGINT
// hand a running scan back to the queue, so another worker resumes it from its last finished stage.
import { disconnectDb } from "~/db.server";
import { startBillingSchedule } from "~/jobs/billing-schedule.server";
import { stopQueue } from "~/jobs/queue.server";
import { logger } from "~/lib/logger.server";
import { CapabilityReport } from "./capability-report.server";
import { describeTrainer, workerConfig } from "~/env.server";
import { findMissingScanTools } from "~/tools/scan-tools.server";
import { startScanWorker } from "./worker.server";

/** How often a worker that lacks scan tools looks again, and how often every worker reports. */
const TOOL_RECHECK_MS = 30_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

async function main() {
  const config = workerConfig();
  const capability = new CapabilityReport();
  let stopping = false;
  let worker: Awaited<ReturnType<typeof startScanWorker>> | null = null;
  // The hourly billing-period reset (docs/decisions/009) runs wherever workers run, tools or not.
  const billing = await startBillingSchedule();
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info("scan worker stopping", { signal });
    await worker?.stop();
    await billing.stop();
    await capability.withdraw().catch(() => undefined);
    await stopQueue();
    await disconnectDb();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));

  // Without its tools the worker does not exit (issue 17 item 1): it says what is missing, reports
  // it (the site then says scans are unavailable), and looks again until they are there.
  let missing = await findMissingScanTools(config);
  while (!stopping) {
    await capability.report(missing).catch((error) => logger.warn("could not report the scan tools", { error }));
    if (missing.length === 0) break;
    process.stderr.write(
      `[scan worker] scans are unavailable on this machine; waiting for the scan tools (checking every ${TOOL_RECHECK_MS / 1000} s):\n` +
        missing.map((tool) => `  - ${tool.detail}\n`).join(""),
    );
    await sleep(TOOL_RECHECK_MS);
    missing = await findMissingScanTools(config);
  }
  if (stopping) return;

  worker = await startScanWorker({ config });
  logger.info("scan worker ready", {
    concurrency: config.SCAN_WORKER_CONCURRENCY,
    threads: config.SCAN_THREADS,
    trainer: describeTrainer(config),
    workDir: config.workDir,
  });
  // Keep the report fresh (and notice tools that disappear, e.g. an uninstalled package).
  const timer = setInterval(() => {
    void findMissingScanTools(config)
      .then((now) => {
        if (now.length > 0) logger.warn("scan tools went missing", { missing: now.map((tool) => tool.detail) });
        return capability.report(now);
      })
      .catch((error) => logger.warn("could not report the scan tools", { error }));
  }, TOOL_RECHECK_MS);
  timer.unref();
}

main().catch((error) => {
  process.stderr.write(`[scan worker] could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
