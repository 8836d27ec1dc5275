import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requirePageAdmin } from "~/auth/require-admin.server";
import { AuditTable } from "~/components/admin/audit-table";
import { getAdminOverview } from "~/domain/admin-overview.server";
import { formatCount } from "~/lib/format";

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePageAdmin(request);
  return json(await getAdminOverview());
}

export default function AdminOverview() {
  const { counts, recent } = useLoaderData<typeof loader>();
  const stats = [
    { to: "/admin/announcements", value: counts.active_announcements, label: `active of ${formatCount(counts.announcements)} announcements` },
    { to: "/admin/categories", value: counts.categories, label: "categories" },
    { to: "/admin/users", value: counts.users, label: `users (${formatCount(counts.admins)} admins, ${formatCount(counts.disabled_users)} disabled)` },
    { to: "/admin/moderation", value: counts.public_items, label: `public items (${formatCount(counts.unpublished_items)} unpublished)` },
    { to: "/admin/moderation#contact-heading", value: counts.contact_messages, label: "contact messages" },
  ];
  return (
    <>
      <h1>Admin</h1>
      <div className="admin-stats">
        {stats.map((s) => (
          <Link key={s.label} to={s.to}>
            <strong>{formatCount(s.value)}</strong>
            <span>{s.label}</span>
          </Link>
        ))}
      </div>
      <section className="admin-panel" aria-labelledby="recent-heading">
        <h2 id="recent-heading">Recent admin actions</h2>
        <AuditTable entries={recent} caption="The ten newest admin actions" />
        <p>
          <Link to="/admin/audit">The whole audit log</Link>
        </p>
      </section>
    </>
  );
}
