import { db, type Prisma } from "~/db.server";
import { consumeCredits, releaseCredits, settleReservation, withCreditLedger, type Tx } from "./credits.server";
import { isAutomaticThumbnailKey } from "./item-thumbnails.server";
import { notify } from "./notifications.server";
import { storefrontsShowingItemChanged } from "./storefront-sync.server";
import { leaseWhere, type ClaimedJob, type Lease } from "./scan-lease.server";
import { migrateViewerSettings, storedViewerSettings } from "./viewer-settings";

/**
 * How a scan ends, in the rows the product shows: published (item ready with the scan's files, credit
 * consumed), failed (item failed with advice, credit released) or cancelled (credit released). The
 * status change, fenced by the lease, and the ledger entry that settles the reserved credit commit in one
 * transaction holding the user's ledger lock: either both happen or neither. The worker stores the files
 * and measures; it reports here and never writes an item row itself. `settleUnsettledScans` settles scans
 * that ended without a worker (a queued scan cancelled by its owner).
 */
export class LeaseLostError extends Error {
  constructor() {
    super("the scan's lease was lost (cancelled, or taken over by another worker)");
    this.name = "LeaseLostError";
  }
}

const reference = (job: Pick<ClaimedJob, "id" | "reservationRef">) => job.reservationRef ?? `scan:${job.id}`;

/**
 * Runs the fenced status change `change` and settles the scan's credit in the same transaction.
 * A job without a reservation (made before the ledger existed) only changes status.
 */
async function endScanSettlingCredit(job: ClaimedJob, settlement: { kind: "consumption" | "release"; reason: string }, change: (tx: Tx) => Promise<void>) {
  const ref = reference(job);
  await withCreditLedger(job.userId, async (ctx) => {
    await change(ctx.tx);
    const reserved = await ctx.tx.ledgerEntry.count({ where: { userId: job.userId, reference: ref, kind: "reservation" } });
    if (reserved > 0) await settleReservation(ctx, { reference: ref, kind: settlement.kind, reason: settlement.reason.slice(0, 500) });
  });
}

/** A stored file of a published scan: its key and size in bytes. */
export interface StoredFile {
  key: string;
  bytes: number;
}

/** What a finished scan stored, as the item will point at it. */
export interface PublishedScan {
  /** The trained (or point-built) splat, the item's file. */
  ply: StoredFile;
  /** The compact copy viewers get, and its coarse level (a tenth of its splats). */
  delivery: (StoredFile & { format: string; coarse: StoredFile | null }) | null;
  mesh: StoredFile | null;
  meshLite: StoredFile | null;
  /** The capture photo, the thumbnail until one is rendered from the model. */
  thumbnailKey: string;
  /** The view the scan opens from unless its owner chose one (a capture camera). */
  openingView: { position: [number, number, number]; target: [number, number, number]; fov: number; aspect?: number } | null;
  /** False when the splat was built from the points without training. */
  trained: boolean;
}

/**
 * Publishes a finished scan: the job succeeded with its metrics, the item is ready on the stored files,
 * the credit consumed, the owner told. Throws LeaseLostError (changing nothing) when the lease is gone.
 */
export async function recordScanPublished(input: { lease: Lease; job: ClaimedJob; published: PublishedScan; metrics: object }): Promise<void> {
  const { lease, job, published } = input;
  const item = await db().item.findUniqueOrThrow({ where: { id: job.itemId }, select: { name: true, thumbnailKey: true, settings: true, settingsVersion: true } });
  // The scan opens from a capture camera unless its owner already chose an opening view.
  const settings = migrateViewerSettings(item.settings, item.settingsVersion);
  const opening = published.openingView;
  const openingSettings = settings.camera === null && opening ? storedViewerSettings({ ...settings, camera: { position: opening.position, target: opening.target, fov: opening.fov, ...(opening.aspect ? { aspect: opening.aspect } : {}) } }) : null;
  const { delivery, mesh, meshLite } = published;
  await endScanSettlingCredit(job, { kind: "consumption", reason: `Scan of item ${job.itemId} finished` }, async (tx) => {
    const { count } = await tx.scanJob.updateMany({
      where: leaseWhere(lease),
      data: { status: "succeeded", stage: "publish", progress: 1, metrics: input.metrics as Prisma.InputJsonValue, finishedAt: new Date(), error: null, advice: null },
    });
    if (count !== 1) throw new LeaseLostError();
    await tx.item.update({
      where: { id: job.itemId },
      data: {
        status: "ready",
        statusDetail: null,
        progress: 1,
        fileKey: published.ply.key,
        fileSize: BigInt(published.ply.bytes),
        fileFormat: "ply",
        ...(delivery
          ? { deliveryKey: delivery.key, deliverySize: BigInt(delivery.bytes), deliveryFormat: delivery.format, deliverySourceKey: published.ply.key }
          : { deliveryKey: null, deliverySize: null, deliveryFormat: null, deliverySourceKey: null }),
        deliveryCoarseKey: delivery?.coarse?.key ?? null,
        deliveryCoarseSize: delivery?.coarse ? BigInt(delivery.coarse.bytes) : null,
        meshKey: mesh?.key ?? null,
        meshSize: mesh ? BigInt(mesh.bytes) : null,
        meshLiteKey: meshLite?.key ?? null,
        meshLiteSize: meshLite ? BigInt(meshLite.bytes) : null,
        ...(openingSettings ? { settings: openingSettings.settings as Prisma.InputJsonValue, settingsVersion: openingSettings.settingsVersion } : {}),
        isPreview: !published.trained,
        // An owner's own thumbnail is kept; an automatic one is replaced (item-thumbnails.server.ts).
        ...(item.thumbnailKey && !isAutomaticThumbnailKey(item.thumbnailKey) ? {} : { thumbnailKey: published.thumbnailKey }),
      },
    });
  });
  await notify({
    userId: job.userId,
    kind: "scan_finished",
    title: "Your scan is ready",
    body: published.trained
      ? `"${item.name}" is ready to view.`
      : `"${item.name}" is ready to view; its splat was not trained, it is built directly from the scan's points.`,
    link: `/item/${job.itemId}`,
    dedupeKey: `scan:${job.id}:finished`,
  });
  // A re-scan changes the mesh and poster that stores show (the product's media is replaced).
  await storefrontsShowingItemChanged(job.itemId);
}

/** Ends a scan as failed: item failed with the reason and advice, credit released, owner notified. */
export async function recordScanFailed(input: { lease: Lease; job: ClaimedJob; error: string; advice: string | null; metrics?: object }): Promise<void> {
  const { lease, job } = input;
  const item = await db().item.findUniqueOrThrow({ where: { id: job.itemId }, select: { name: true } });
  const detail = input.advice ? `${input.error} ${input.advice}` : input.error;
  await endScanSettlingCredit(job, { kind: "release", reason: `Scan of item ${job.itemId} failed: ${input.error}` }, async (tx) => {
    const { count } = await tx.scanJob.updateMany({
      where: leaseWhere(lease),
      data: {
        status: "failed",
        error: input.error,
        advice: input.advice,
        finishedAt: new Date(),
        ...(input.metrics ? { metrics: input.metrics as Prisma.InputJsonValue } : {}),
      },
    });
    if (count !== 1) throw new LeaseLostError();
    await tx.item.update({ where: { id: job.itemId }, data: { status: "failed", statusDetail: detail.slice(0, 1000), progress: null } });
  });
  await notify({
    userId: job.userId,
    kind: "scan_failed",
    title: "Your scan could not be finished",
    body: `"${item.name}": ${detail}`,
    link: `/item/${job.itemId}`,
    dedupeKey: `scan:${job.id}:failed`,
  });
}

/** The owner cancelled a running scan and its tools have stopped: the scan is finished and the credit goes back. */
export async function recordScanCancelled(input: { lease: Lease; job: ClaimedJob }): Promise<void> {
  const { lease, job } = input;
  await endScanSettlingCredit(job, { kind: "release", reason: `Scan of item ${job.itemId} cancelled` }, async (tx) => {
    const { count } = await tx.scanJob.updateMany({
      where: { id: lease.jobId, attempts: lease.token, status: "cancelled" },
      data: { finishedAt: new Date(), error: "Cancelled by the owner." },
    });
    if (count !== 1) throw new LeaseLostError();
    await tx.item.updateMany({
      where: { id: job.itemId, status: { in: ["queued", "processing"] } },
      data: { status: "failed", statusDetail: "Scan cancelled.", progress: null },
    });
  });
}

/**
 * Finished scans whose reservation was never settled (the worker died between the status change
 * and the ledger call, or a queued scan was cancelled): consumed when the scan succeeded, released
 * otherwise. Safe to run any number of times, on any worker.
 */
export async function settleUnsettledScans(limit = 20): Promise<number> {
  const rows = await db().$queryRaw<Array<{ id: string; userId: string; itemId: string; status: string; ref: string }>>`
    SELECT j.id, j."userId", j."itemId", j.status::text AS status, j."reservationRef" AS ref
      FROM "ScanJob" j
     WHERE j.status IN ('succeeded', 'failed', 'cancelled')
       AND j."reservationRef" IS NOT NULL
       AND EXISTS (SELECT 1 FROM "LedgerEntry" r WHERE r.reference = j."reservationRef" AND r.kind = 'reservation')
       AND NOT EXISTS (SELECT 1 FROM "LedgerEntry" s WHERE s.reference = j."reservationRef" AND s.kind IN ('consumption', 'release'))
     LIMIT ${limit}`;
  for (const row of rows) {
    if (row.status === "succeeded") await consumeCredits({ userId: row.userId, reference: row.ref, reason: `Scan of item ${row.itemId} finished` });
    else await releaseCredits({ userId: row.userId, reference: row.ref, reason: `Scan of item ${row.itemId} ${row.status}` });
  }
  return rows.length;
}

/**
 * Running scans cancelled by their owner whose worker died before it could finish the cancellation (no
 * heartbeat for `staleSeconds`), as the cancellation's leases: the caller finishes each (recordScanCancelled)
 * and removes its working files.
 */
export async function findAbandonedCancellations(input: { staleSeconds: number; limit?: number }): Promise<Array<{ lease: Lease; job: ClaimedJob }>> {
  const rows = await db().$queryRaw<Array<{ id: string; userId: string; itemId: string; attempts: number; reservationRef: string | null }>>`
    SELECT id, "userId", "itemId", attempts, "reservationRef" FROM "ScanJob"
     WHERE status = 'cancelled' AND "finishedAt" IS NULL
       AND "updatedAt" < (now() AT TIME ZONE 'UTC') - ${input.staleSeconds}::float8 * interval '1 second'
     LIMIT ${input.limit ?? 20}`;
  return rows.map((row) => ({ lease: { jobId: row.id, token: row.attempts }, job: { ...row } as ClaimedJob }));
}
