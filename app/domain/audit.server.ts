import { db, Prisma, type AuditLog } from "~/db.server";

/**
 * The admin audit log: who did what, when, with the record's state before and after. Every admin
 * action writes exactly one entry in the same transaction as the change itself, so there is never a
 * change without its entry, nor an entry for a change that was refused or rolled back. What leaves the
 * service is recorded here too: each download link issued (downloads.server.ts, `item.download_link`),
 * and so is each change of a model's file by its editor (item-versions.server.ts, `item.version_saved`
 * and `item.version_restored`).
 */
type Tx = Prisma.TransactionClient;

export type AuditTargetType = "announcement" | "category" | "user" | "item";

export interface AuditRecord {
  action: string;
  targetType: AuditTargetType;
  targetId: string | null;
  before: unknown;
  after: unknown;
}

function toJson(value: unknown): Prisma.InputJsonValue | typeof Prisma.DbNull {
  if (value === undefined || value === null) return Prisma.DbNull;
  // Dates become ISO strings and bigints numbers, as in API answers.
  return JSON.parse(JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? Number(v) : v)));
}

/** Writes one audit entry inside the caller's transaction. */
export async function recordAudit(tx: Tx, entry: AuditRecord & { actorId: string | null }): Promise<void> {
  await tx.auditLog.create({
    data: {
      actorId: entry.actorId,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId,
      before: toJson(entry.before),
      after: toJson(entry.after),
    },
  });
}

/**
 * Runs an admin change and writes its audit entry in one transaction. `change` returns the result
 * and what to record; throwing inside it changes and records nothing.
 */
export async function audited<T>(
  actorId: string | null,
  change: (tx: Tx) => Promise<{ result: T; audit: AuditRecord }>,
): Promise<T> {
  return db().$transaction(async (tx) => {
    const { result, audit } = await change(tx);
    await recordAudit(tx, { actorId, ...audit });
    return result;
  });
}

export function presentAuditEntry(row: AuditLog & { actor: { id: string; email: string | null; displayName: string | null } | null }) {
  return {
    id: row.id,
    action: row.action,
    target_type: row.targetType,
    target_id: row.targetId,
    before: row.before,
    after: row.after,
    actor: row.actor ? { id: row.actor.id, email: row.actor.email, display_name: row.actor.displayName } : null,
    created_at: row.createdAt.toISOString(),
  };
}
export type AuditEntryDto = ReturnType<typeof presentAuditEntry>;

/** The newest entries first, optionally for one target (a user's or an item's history). */
export async function listAuditEntries({
  targetType,
  targetId,
  limit = 100,
}: { targetType?: AuditTargetType; targetId?: string; limit?: number } = {}): Promise<AuditEntryDto[]> {
  const rows = await db().auditLog.findMany({
    where: { ...(targetType ? { targetType } : {}), ...(targetId ? { targetId } : {}) },
    include: { actor: { select: { id: true, email: true, displayName: true } } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
  });
  return rows.map(presentAuditEntry);
}
