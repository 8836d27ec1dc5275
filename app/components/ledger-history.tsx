import { Link } from "@remix-run/react";
import type { LedgerEntryDto } from "~/domain/ledger-history.server";
import { formatDate } from "~/lib/format";

/**
 * The credit ledger as a history (issue 8): every movement with its reason, so every number in the
 * quota summary can be explained. The full table on /settings, the latest few on the dashboard.
 */
const KIND_LABEL: Record<string, string> = {
  period_grant: "Monthly grant",
  topup: "Top-up",
  reservation: "Reserved",
  consumption: "Used",
  release: "Returned",
  refund: "Refunded",
  adjustment: "Adjustment",
  expiry: "Lapsed",
};

const BUCKET_LABEL: Record<string, string> = { period: "monthly", topup: "top-up" };

export function formatLedgerAmount(amount: number): string {
  if (amount > 0) return `+${amount}`;
  if (amount < 0) return `\u2212${-amount}`;
  return "0";
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** A ledger reason for people: "Scan of item <uuid> finished" → "Scan finished"; other ids cut to 8 characters. */
export function readableLedgerReason(reason: string): string {
  return reason.replace(new RegExp(` of item ${UUID.source}`, "gi"), "").replace(UUID, (id) => `${id.slice(0, 8)}\u2026`);
}

/**
 * The entry's title (issue 18 item 7): a consumption settles an earlier reservation, so its amount is 0 —
 * shown as "Used · the reserved scan credit", not "Used · scan 0" next to "Reserved · scan −1".
 */
export function ledgerEntryTitle(entry: Pick<LedgerEntryDto, "kind" | "credit_type" | "amount">): string {
  const kind = KIND_LABEL[entry.kind] ?? entry.kind;
  const credits = (n: number) => `${n} ${entry.credit_type} ${n === 1 ? "credit" : "credits"}`;
  if (entry.amount === 0 && entry.kind === "consumption") return `${kind} \u00b7 the reserved ${entry.credit_type} credit`;
  if (entry.amount === 0) return `${kind} \u00b7 ${entry.credit_type} credits`;
  return `${kind} \u00b7 ${credits(Math.abs(entry.amount))}`;
}

export function LedgerHistory({ entries, olderHref }: { entries: LedgerEntryDto[]; olderHref?: string | null }) {
  return (
    <section className="settings-panel ledger-history" aria-labelledby="credit-history-heading" id="credit-history" data-testid="ledger-history">
      <h2 id="credit-history-heading">Credit history</h2>
      {entries.length === 0 ? (
        <p className="quota-note">No credit movements yet.</p>
      ) : (
        <div className="ledger-scroll">
          <table className="ledger-table" aria-labelledby="credit-history-heading">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Entry</th>
                <th scope="col">Credits</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id} data-testid="ledger-entry" data-kind={entry.kind}>
                  <td>{formatDate(entry.created_at)}</td>
                  <td>
                    <strong>
                      {ledgerEntryTitle(entry)} ({BUCKET_LABEL[entry.bucket] ?? entry.bucket})
                    </strong>
                    <span className="ledger-reason">{readableLedgerReason(entry.reason)}</span>
                  </td>
                  <td className={entry.amount < 0 ? "ledger-amount is-negative" : "ledger-amount"}>
                    {entry.amount === 0 ? "\u2014" : formatLedgerAmount(entry.amount)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {olderHref ? (
        <p className="quota-note">
          <Link to={olderHref}>Older entries</Link>
        </p>
      ) : null}
    </section>
  );
}

/** The latest few movements, for the dashboard's side column. */
export function RecentCredits({ entries }: { entries: LedgerEntryDto[] }) {
  return (
    <section className="quota recent-credits" aria-labelledby="recent-credits-heading" data-testid="recent-credits">
      <h2 id="recent-credits-heading">Recent credit activity</h2>
      {entries.length === 0 ? (
        <p className="quota-note">No credit movements yet.</p>
      ) : (
        <ul className="recent-credits-list">
          {entries.map((entry) => (
            <li key={entry.id} data-testid="recent-credit">
              <span>{ledgerEntryTitle(entry)}</span>
              <span className={entry.amount < 0 ? "ledger-amount is-negative" : "ledger-amount"}>
                {entry.amount === 0 ? "\u2014" : formatLedgerAmount(entry.amount)}
              </span>
            </li>
          ))}
        </ul>
      )}
      <p className="quota-note">
        <Link to="/settings#credit-history">All credit history</Link>
      </p>
    </section>
  );
}
