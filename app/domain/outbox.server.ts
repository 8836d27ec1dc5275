import { EventEmitter } from "node:events";
import { z } from "zod";
import { db, type Prisma } from "~/db.server";

/**
 * The after-commit outbox (issue 39, docs/decisions/043): follow-up work a domain change asks for is written
 * as a row, in the change's own transaction where it has one, and the job layer's relay
 * (app/jobs/outbox-relay.server.ts) hands it to the queue once committed. So no domain module imports a job
 * module, and a change that rolls back asks for nothing.
 */
const itemFile = { itemId: z.string().uuid(), sourceKey: z.string().min(1).max(512) };
const storefrontProduct = z
  .object({ shopDomain: z.string().regex(/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/), productGid: z.string().regex(/^gid:\/\/shopify\/Product\/\d+$/) })
  .strict();

export const followUpSchema = z.discriminatedUnion("kind", [
  /** A requested scan's pipeline job (the ScanJob row holds the rest; its id is the job's). */
  z.object({ kind: z.literal("scan"), scanJobId: z.string().uuid() }).strict(),
  /** A splat's compact delivery copy (domain/splat-delivery.server.ts). */
  z.object({ kind: z.literal("delivery-copy"), ...itemFile }).strict(),
  /** A model's automatic thumbnail (domain/item-thumbnails.server.ts). */
  z.object({ kind: z.literal("thumbnail"), ...itemFile }).strict(),
  /** Products whose `$app` model metafield must be rewritten (domain/storefront-sync.server.ts). */
  z.object({ kind: z.literal("storefront-sync"), products: z.array(storefrontProduct).min(1) }).strict(),
]);
export type FollowUp = z.infer<typeof followUpSchema>;

/**
 * One notifier per process, shared by every copy of this module (the server build bundles its own copy of the
 * domain; the relay is started from the source): a recorded follow-up wakes the relay at once.
 */
const globalForOutbox = globalThis as unknown as { __scanroomOutbox?: EventEmitter };
const notifier = (globalForOutbox.__scanroomOutbox ??= new EventEmitter());
const COMMITTED = "committed";

/** Writes follow-ups inside the caller's transaction: they exist exactly when it commits. Call followUpsCommitted() after. */
export async function recordFollowUps(tx: Prisma.TransactionClient, followUps: FollowUp[]): Promise<void> {
  if (followUps.length === 0) return;
  await tx.outboxMessage.createMany({
    data: followUps.map((followUp) => {
      const { kind, ...payload } = followUpSchema.parse(followUp);
      return { kind, payload };
    }),
  });
}

/** Tells this process's relay that follow-ups were committed (a wake-up only: the relay also sweeps on a timer). */
export function followUpsCommitted(): void {
  notifier.emit(COMMITTED);
}

/** Records follow-ups of a change that has already committed (no transaction of its own) and wakes the relay. */
export async function requestFollowUps(followUps: FollowUp[]): Promise<void> {
  if (followUps.length === 0) return;
  await recordFollowUps(db(), followUps);
  followUpsCommitted();
}

/** Runs `listener` whenever follow-ups were committed in this process; returns the unsubscribe. */
export function onFollowUpsCommitted(listener: () => void): () => void {
  notifier.on(COMMITTED, listener);
  return () => notifier.off(COMMITTED, listener);
}

/** A stored follow-up back as the domain wrote it; null when the row does not parse (written by another version). */
export function followUpOf(row: { kind: string; payload: Prisma.JsonValue }): FollowUp | null {
  const parsed = followUpSchema.safeParse({ ...(row.payload as object), kind: row.kind });
  return parsed.success ? parsed.data : null;
}
