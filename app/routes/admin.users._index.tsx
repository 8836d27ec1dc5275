import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { Button } from "primereact/button";
import { InputText } from "primereact/inputtext";
import { requirePageAdmin } from "~/auth/require-admin.server";
import { searchUsers } from "~/domain/admin-users.server";
import { adminUserSearchSchema } from "~/domain/schemas";
import { formatDate } from "~/lib/format";

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePageAdmin(request);
  const raw = new URL(request.url).searchParams.get("q")?.trim() || undefined;
  const query = adminUserSearchSchema.safeParse({ q: raw });
  const q = query.success ? query.data.q : undefined;
  return json({ q: q ?? "", users: await searchUsers({ q, limit: 50 }) });
}

export default function AdminUsers() {
  const { q, users } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Users</h1>
      <Form method="get" className="admin-form-row" role="search">
        <div className="admin-field">
          <label htmlFor="user-search">Email or name</label>
          <InputText id="user-search" name="q" type="search" defaultValue={q} maxLength={200} />
        </div>
        <div className="admin-actions">
          <Button type="submit" label="Search" icon="pi pi-search" />
        </div>
      </Form>
      <p className="admin-help" role="status">
        {q ? `${users.length} ${users.length === 1 ? "user matches" : "users match"} "${q}"${users.length === 50 ? " (the newest 50)" : ""}.` : "The newest 50 users."}
      </p>
      <div className="admin-table-wrap">
        <table className="admin-table">
          <caption className="sr-only">Users</caption>
          <thead>
            <tr>
              <th scope="col">User</th>
              <th scope="col">Plan</th>
              <th scope="col">Status</th>
              <th scope="col">Joined</th>
            </tr>
          </thead>
          <tbody>
            {users.map((u) => (
              <tr key={u.id}>
                <td>
                  <Link to={`/admin/users/${u.id}`}>{u.email ?? u.id}</Link>
                  {u.display_name ? <div className="admin-row-meta">{u.display_name}</div> : null}
                </td>
                <td>{u.plan?.name ?? "—"}</td>
                <td>
                  {u.is_admin ? <span className="admin-tag">Admin</span> : null}
                  {u.disabled_at ? <span className="admin-tag is-danger">Disabled</span> : null}
                  {!u.email_verified ? <span className="admin-tag is-off">Unverified</span> : null}
                </td>
                <td>{formatDate(u.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
