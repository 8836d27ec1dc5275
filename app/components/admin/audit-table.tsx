import { Link } from "@remix-run/react";
import type { AuditEntryDto } from "~/domain/audit.server";
import { formatDateTime } from "~/lib/format";

function targetLink(entry: AuditEntryDto) {
  if (!entry.target_id) return entry.target_type;
  if (entry.target_type === "user") return <Link to={`/admin/users/${entry.target_id}`}>user {entry.target_id.slice(0, 8)}</Link>;
  if (entry.target_type === "item") return <Link to={`/item/${entry.target_id}`}>item {entry.target_id.slice(0, 8)}</Link>;
  return `${entry.target_type} ${entry.target_id.slice(0, 8)}`;
}

/** Admin actions: when, who, what, on which record, and the record before and after. */
export function AuditTable({ entries, caption }: { entries: AuditEntryDto[]; caption: string }) {
  if (entries.length === 0) return <p className="admin-help">No admin actions yet.</p>;
  return (
    <div className="admin-table-wrap">
      <table className="admin-table" data-testid="audit-table">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">Action</th>
            <th scope="col">Target</th>
            <th scope="col">Before and after</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id} data-testid="audit-entry">
              <td>{formatDateTime(entry.created_at)}</td>
              <td>{entry.actor ? (entry.actor.email ?? entry.actor.display_name ?? entry.actor.id) : "system"}</td>
              <td>
                <code>{entry.action}</code>
              </td>
              <td>{targetLink(entry)}</td>
              <td>
                <details>
                  <summary>Show</summary>
                  <pre className="admin-json">{JSON.stringify({ before: entry.before, after: entry.after }, null, 2)}</pre>
                </details>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
