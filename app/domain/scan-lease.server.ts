import { db, type Prisma } from "~/db.server";

/**
 * Leases on scan jobs, kept in the ScanJob row itself (no extra table): `attempts` is the lease
 * token (a fencing number: every claim increments it) and `updatedAt` is the heartbeat. A job is
 * free when queued, or when running with a heartbeat older than the lease (its worker died). Every
 * write a worker makes is fenced by its token, so a worker that lost its lease cannot overwrite the
 * one that took over. Times are the database's own clock (now()), the same for every machine.
 */
export interface Lease {
  jobId: string;
  token: number;
}

export interface ClaimedJob {
  id: string;
  itemId: string;
  userId: string;
  inputKind: "video" | "image";
  inputPath: string;
  duration: number | null;
  attempts: number;
  stage: string | null;
  reservationRef: string | null;
  startedAt: Date | null;
}

/** Takes the job if it is free; null when another worker holds a live lease or it is finished. */
export async function claimJob(jobId: string, leaseSeconds: number): Promise<ClaimedJob | null> {
  const rows = await db().$queryRaw<ClaimedJob[]>`
    UPDATE "ScanJob"
       SET status = 'running', attempts = attempts + 1, "startedAt" = COALESCE("startedAt", now() AT TIME ZONE 'UTC'), "updatedAt" = now() AT TIME ZONE 'UTC'
     WHERE id = ${jobId}::uuid
       AND (status = 'queued' OR (status = 'running' AND "updatedAt" < (now() AT TIME ZONE 'UTC') - ${leaseSeconds}::float8 * interval '1 second'))
     RETURNING id, "itemId", "userId", "inputKind"::text AS "inputKind", "inputPath", duration, attempts, stage, "reservationRef", "startedAt"`;
  return rows[0] ?? null;
}

export type HeartbeatResult = "held" | "cancelled" | "lost";

/** Renews the lease. "cancelled" when the owner cancelled the scan; "lost" when another worker took it. */
export async function heartbeat(lease: Lease): Promise<HeartbeatResult> {
  const renewed = await db().$executeRaw`
    UPDATE "ScanJob" SET "updatedAt" = now() AT TIME ZONE 'UTC'
     WHERE id = ${lease.jobId}::uuid AND attempts = ${lease.token} AND status = 'running'`;
  if (renewed === 1) return "held";
  const row = await db().scanJob.findUnique({ where: { id: lease.jobId }, select: { status: true, attempts: true } });
  return row && row.status === "cancelled" && row.attempts === lease.token ? "cancelled" : "lost";
}

/** The fencing condition of every write under a lease. */
export function leaseWhere(lease: Lease): Prisma.ScanJobWhereInput {
  return { id: lease.jobId, attempts: lease.token, status: "running" };
}

/** Updates the job only while the lease is held; false when it is not (cancelled or taken over). */
export async function updateUnderLease(lease: Lease, data: Prisma.ScanJobUpdateManyMutationInput, tx: Prisma.TransactionClient = db()): Promise<boolean> {
  const { count } = await tx.scanJob.updateMany({ where: leaseWhere(lease), data });
  return count === 1;
}

/**
 * A running stage's progress, under the lease: the job's stage and overall fraction, and the item's status
 * line (what the owner sees while the scan runs). False, writing nothing, when the lease is gone.
 */
export async function recordScanProgress(lease: Lease, itemId: string, progress: { stage: string; overall: number; detail: string }): Promise<boolean> {
  return db().$transaction(async (tx) => {
    if (!(await updateUnderLease(lease, { stage: progress.stage, progress: progress.overall }, tx))) return false;
    await tx.item.update({ where: { id: itemId }, data: { status: "processing", statusDetail: progress.detail, progress: progress.overall } });
    return true;
  });
}

/** Hands the job back to the queue (a worker shutting down, or a retry after an unexpected error). */
export async function releaseLease(lease: Lease, error?: string): Promise<boolean> {
  return updateUnderLease(lease, { status: "queued", ...(error ? { error } : {}) });
}

/**
 * Jobs an idle worker may take without a queue message: running ones whose worker stopped beating,
 * and queued ones that waited longer than `queuedSeconds` (their queue message was lost or exhausted).
 */
export async function findAbandonedJobs(input: { leaseSeconds: number; queuedSeconds: number; limit: number }): Promise<string[]> {
  const rows = await db().$queryRaw<Array<{ id: string }>>`
    SELECT id FROM "ScanJob"
     WHERE (status = 'running' AND "updatedAt" < (now() AT TIME ZONE 'UTC') - ${input.leaseSeconds}::float8 * interval '1 second')
        OR (status = 'queued' AND "updatedAt" < (now() AT TIME ZONE 'UTC') - ${input.queuedSeconds}::float8 * interval '1 second')
     ORDER BY "createdAt" ASC
     LIMIT ${input.limit}`;
  return rows.map((r) => r.id);
}
