import { db, type LedgerEntry } from "~/db.server";

/**
 * The credit ledger as its owner sees it (issue 8: the dashboard and settings show the ledger history):
 * newest first, scoped to the user, paged by entry id. Every number on the quota summary is the sum of
 * these entries (app/domain/credits.server.ts).
 */
export const LEDGER_PAGE_SIZE = 50;

export function presentLedgerEntry(entry: LedgerEntry) {
  return {
    id: entry.id,
    created_at: entry.createdAt.toISOString(),
    credit_type: entry.creditType,
    bucket: entry.bucket,
    kind: entry.kind,
    amount: entry.amount,
    reason: entry.reason,
  };
}
export type LedgerEntryDto = ReturnType<typeof presentLedgerEntry>;

export async function listLedgerHistory({ userId, before, limit = LEDGER_PAGE_SIZE }: { userId: string; before?: string | null; limit?: number }) {
  // A cursor that is not one of this user's entries is ignored (first page).
  const cursor = before ? await db().ledgerEntry.findFirst({ where: { id: before, userId }, select: { id: true } }).catch(() => null) : null;
  const rows = await db().ledgerEntry.findMany({
    where: { userId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    ...(cursor ? { cursor: { id: cursor.id }, skip: 1 } : {}),
  });
  const page = rows.slice(0, limit);
  return { entries: page.map(presentLedgerEntry), next_before: rows.length > limit ? page[page.length - 1].id : null };
}
