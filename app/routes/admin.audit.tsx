import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requirePageAdmin } from "~/auth/require-admin.server";
import { AuditTable } from "~/components/admin/audit-table";
import { listAuditEntries } from "~/domain/audit.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePageAdmin(request);
  return json({ entries: await listAuditEntries({ limit: 200 }) });
}

export default function AdminAudit() {
  const { entries } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Audit log</h1>
      <p className="admin-help">Every admin action, newest first (the latest 200): who, what, when, and the record before and after.</p>
      <section className="admin-panel" aria-label="Audit entries">
        <AuditTable entries={entries} caption="Admin actions, newest first" />
      </section>
    </>
  );
}
