import { db } from "~/db.server";
import { parseWorkerConfig } from "~/env.server";
import { findMissingScanTools } from "~/tools/scan-tools.server";
import { AppError } from "~/lib/errors";

/**
 * Whether this server can take scan requests (issue 17 item 1; docs/decisions/022-scan-availability.md).
 *
 * Workers report the scan tools they lack to the database (ScanWorker rows, refreshed while they
 * run). A report younger than WORKER_REPORT_FRESH_MS counts:
 * - a fresh worker with every tool → available;
 * - fresh workers, all lacking tools → unavailable, naming what is missing;
 * - no fresh worker → this machine's own check decides (workers may start later: a scan requested
 *   now waits in the queue), so a server whose own machine lacks the tools says so.
 */
export const WORKER_REPORT_FRESH_MS = 2 * 60 * 1000;
const LOCAL_CHECK_CACHE_MS = 60 * 1000;

export interface ScanAvailability {
  available: boolean;
  /** Tool names missing, when unavailable. */
  missing: string[];
  /** A sentence for people (upload dialog, dashboard, API error). */
  message: string | null;
}

let localCheck: { at: number; missing: Promise<string[]> } | null = null;

function missingOnThisMachine(): Promise<string[]> {
  if (!localCheck || Date.now() - localCheck.at > LOCAL_CHECK_CACHE_MS) {
    localCheck = { at: Date.now(), missing: findMissingScanTools(parseWorkerConfig()).then((list) => list.map((tool) => tool.name)) };
  }
  return localCheck.missing;
}

const unavailable = (missing: string[]): ScanAvailability => ({
  available: false,
  missing,
  message: `Scans are unavailable on this server: the scan tools are not installed (${missing.join(", ")} missing). Uploading models still works.`,
});

export async function getScanAvailability(): Promise<ScanAvailability> {
  const workers = await db().scanWorker.findMany({
    where: { reportedAt: { gte: new Date(Date.now() - WORKER_REPORT_FRESH_MS) } },
    select: { missingTools: true },
  });
  if (workers.some((worker) => worker.missingTools.length === 0)) return { available: true, missing: [], message: null };
  const missing = workers.length > 0 ? [...new Set(workers.flatMap((worker) => worker.missingTools))] : await missingOnThisMachine();
  return missing.length === 0 ? { available: true, missing: [], message: null } : unavailable(missing);
}

/** Refuses a scan request (503, nothing reserved) when no worker here can run scans. */
export async function assertScansAvailable(): Promise<void> {
  const availability = await getScanAvailability();
  if (!availability.available) throw new AppError("scans_unavailable", availability.message!);
}
