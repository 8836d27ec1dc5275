// Liveness and readiness for a process manager or load balancer (issue 19 item 4, docs/deploy.md):
// `/healthz` answers while the process runs; `/readyz` answers 200 only when this web process can do
// its work — the database answers, the object store answers, the job queue is there — and it is not
// draining for a shutdown.
import { db } from "~/db.server";
import { SCAN_QUEUE, queue } from "~/jobs/queue.server";
import { isDraining } from "~/lib/draining";
import { logger } from "~/lib/logger.server";
import { storage } from "~/storage/index.server";

export type CheckName = "database" | "storage" | "queue";
export type CheckState = "ok" | "unreachable" | "timeout";

export interface Readiness {
  ready: boolean;
  draining: boolean;
  checks: Record<CheckName, CheckState>;
}

/** A dependency that does not answer within this long counts as down (a probe must answer quickly). */
const CHECK_TIMEOUT_MS = 3_000;

const PROBES: Record<CheckName, () => Promise<unknown>> = {
  database: () => db().$queryRaw`SELECT 1`,
  // A key nobody writes: stat answers null when the store is reachable, throws when it is not.
  storage: () => storage().stat("health/readiness-probe"),
  queue: async () => {
    const boss = await queue();
    if (!(await boss.getQueue(SCAN_QUEUE))) throw new Error(`the "${SCAN_QUEUE}" queue does not exist`);
  },
};

async function probe(name: CheckName, run: () => Promise<unknown>, timeoutMs: number): Promise<CheckState> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  try {
    const result = await Promise.race([run().then(() => "ok" as const), timeout]);
    if (result === "timeout") logger.warn("readiness check timed out", { check: name, timeoutMs });
    return result;
  } catch (error) {
    logger.warn("readiness check failed", { check: name, error });
    return "unreachable";
  } finally {
    clearTimeout(timer);
  }
}

export async function checkReadiness(
  probes: Record<CheckName, () => Promise<unknown>> = PROBES,
  timeoutMs = CHECK_TIMEOUT_MS,
): Promise<Readiness> {
  const names = Object.keys(probes) as CheckName[];
  const states = await Promise.all(names.map((name) => probe(name, probes[name], timeoutMs)));
  const checks = Object.fromEntries(names.map((name, i) => [name, states[i]])) as Record<CheckName, CheckState>;
  const draining = isDraining();
  return { ready: !draining && states.every((state) => state === "ok"), draining, checks };
}
