import type PgBoss from "pg-boss";
import { renewDueBillingPeriods } from "~/domain/billing-periods.server";
import { startPgBoss } from "./queue.server";
import { env } from "~/env.server";

/**
 * The scheduled billing-period reset (issue 8, docs/decisions/009): a pg-boss cron schedule in our own
 * PostgreSQL sends one job an hour to the "billing-periods" queue; whichever worker takes it runs
 * `renewDueBillingPeriods`. Every scan worker starts this, so the reset runs wherever workers run;
 * pg-boss sends a cron job once across all of them, the queue's singleton policy keeps two runs from
 * overlapping, and the reset itself is idempotent — running it twice grants nothing twice.
 */
export const BILLING_QUEUE = "billing-periods";
export const BILLING_CRON = "7 * * * *"; // hourly, at minute 7 (UTC)

export interface BillingSchedule {
  /** The pg-boss instance (tests send a job to run the reset now). */
  boss: PgBoss;
  stop(): Promise<void>;
}

export async function startBillingSchedule({ connectionString = env().DATABASE_URL }: { connectionString?: string } = {}): Promise<BillingSchedule> {
  if (!connectionString) throw new Error("DATABASE_URL is not set: the billing schedule needs the product's database");
  // Only the cron clock here: the scan worker's own instance supervises the queues (maintenance).
  const boss = await startPgBoss({ connectionString, max: 2, supervise: false, schedule: true, migrate: true }, "billing schedule", async (started) => {
    await started.createQueue(BILLING_QUEUE, { name: BILLING_QUEUE, policy: "singleton", retryLimit: 2, retryDelay: 60, expireInSeconds: 30 * 60 });
    await started.schedule(BILLING_QUEUE, BILLING_CRON, {}, { tz: "UTC" });
    await started.work(BILLING_QUEUE, { batchSize: 1, pollingIntervalSeconds: 5 }, async () => {
      await renewDueBillingPeriods();
    });
  });
  return {
    boss,
    async stop() {
      await boss.offWork(BILLING_QUEUE).catch(() => undefined);
      await boss.stop({ graceful: true, wait: true, close: true, timeout: 5_000 }).catch(() => undefined);
    },
  };
}
