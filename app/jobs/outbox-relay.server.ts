import { db, type Prisma } from "~/db.server";
import { followUpOf, onFollowUpsCommitted, type FollowUp } from "~/domain/outbox.server";
import { logger } from "~/lib/logger.server";
import { enqueueDeliveryCopy } from "./delivery-jobs.server";
import { enqueueScanJob } from "./queue.server";
import { enqueueStorefrontSync } from "./storefront-sync-jobs.server";
import { enqueueThumbnailJob } from "./thumbnail-jobs.server";

/**
 * The outbox's relay (docs/decisions/043): hands the follow-ups the domain committed to the job queue, then
 * deletes them. Woken at once by a commit in this process, and on a timer for rows another process left (it
 * died between its commit and its relay). Rows are taken with SKIP LOCKED, so relays in several processes
 * never hand the same row twice at the same time; a crash between the hand-over and the delete hands it again
 * later, which every job allows (they are idempotent).
 */
const BATCH = 50;
const SWEEP_MS = 5_000;

/** Hands one follow-up to its queue (each enqueue also makes this process work that queue). */
function dispatch(followUp: FollowUp): Promise<void> {
  switch (followUp.kind) {
    case "scan":
      return enqueueScanJob(followUp.scanJobId);
    case "delivery-copy":
      return enqueueDeliveryCopy({ itemId: followUp.itemId, sourceKey: followUp.sourceKey });
    case "thumbnail":
      return enqueueThumbnailJob({ itemId: followUp.itemId, sourceKey: followUp.sourceKey });
    case "storefront-sync":
      return enqueueStorefrontSync(followUp.products);
  }
}

/** One pass: every follow-up committed so far, in order, batch by batch. Answers how many were handed over. */
export async function relayFollowUps(): Promise<number> {
  let handed = 0;
  for (;;) {
    const batch = await db().$transaction(
      async (tx) => {
        const rows = await tx.$queryRaw<Array<{ id: bigint; kind: string; payload: Prisma.JsonValue }>>`
          SELECT id, kind, payload FROM "OutboxMessage" ORDER BY id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`;
        let done = 0;
        for (const row of rows) {
          const followUp = followUpOf(row);
          if (!followUp) {
            // Nothing a retry could mend: said once, loudly, and dropped.
            logger.error("an outbox row that does not parse was dropped", { id: String(row.id), kind: row.kind });
            await tx.outboxMessage.delete({ where: { id: row.id } });
            continue;
          }
          try {
            await dispatch(followUp);
            await tx.outboxMessage.delete({ where: { id: row.id } });
            done++;
          } catch (error) {
            // The queue did not take it: kept for the next pass.
            logger.warn("a follow-up could not be queued yet", { id: String(row.id), kind: row.kind, error });
            await tx.outboxMessage.update({ where: { id: row.id }, data: { attempts: { increment: 1 }, lastError: String(error).slice(0, 500) } });
          }
        }
        return { rows: rows.length, done };
      },
      { timeout: 60_000 },
    );
    handed += batch.done;
    if (batch.rows < BATCH || batch.done === 0) return handed;
  }
}

const globalForRelay = globalThis as unknown as { __scanroomOutboxRelay?: { stop: () => Promise<void> } };

/**
 * Starts this process's relay (a web process: server.ts), once per process: a pass after every commit that
 * recorded follow-ups (passes never overlap; one asked for during a pass runs after it) and every 5 s.
 */
export function startOutboxRelay(sweepMs = SWEEP_MS): { stop: () => Promise<void> } {
  if (globalForRelay.__scanroomOutboxRelay) return globalForRelay.__scanroomOutboxRelay;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const pass = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = relayFollowUps()
      .then(() => undefined)
      .catch((error: unknown) => logger.warn("the outbox relay's pass failed", { error }))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          pass();
        }
      });
  };
  const unsubscribe = onFollowUpsCommitted(pass);
  const timer = setInterval(pass, sweepMs);
  timer.unref();
  pass();
  const relay = {
    async stop() {
      stopped = true;
      unsubscribe();
      clearInterval(timer);
      await running;
      if (globalForRelay.__scanroomOutboxRelay === relay) globalForRelay.__scanroomOutboxRelay = undefined;
    },
  };
  globalForRelay.__scanroomOutboxRelay = relay;
  return relay;
}

/** Stops this process's relay, if one runs (a test server's close, a shutdown), after its pass in flight. */
export async function stopOutboxRelay(): Promise<void> {
  await globalForRelay.__scanroomOutboxRelay?.stop();
}
