import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Button } from "primereact/button";
import { confirmDialog, ConfirmDialog } from "primereact/confirmdialog";
import { Dialog } from "primereact/dialog";
import { InputText } from "primereact/inputtext";
import { useState, type FormEvent } from "react";
import { useAuth } from "~/auth/auth-provider";
import { requirePageAdmin } from "~/auth/require-admin.server";
import { AuditTable } from "~/components/admin/audit-table";
import { CreditAdjustmentForm } from "~/components/admin/credit-adjustment-form";
import { LedgerHistory } from "~/components/ledger-history";
import { useAdminAction } from "~/components/admin/use-admin-action";
import { getUserOverview } from "~/domain/admin-users.server";
import { isAppError } from "~/lib/errors";
import { uuidSchema } from "~/domain/schemas";
import { formatDate, formatDateTime } from "~/lib/format";
import { quotaLines } from "~/lib/quota-display";

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requirePageAdmin(request);
  if (!uuidSchema.safeParse(params.id).success) throw new Response("Not found", { status: 404 });
  try {
    const ledgerBefore = new URL(request.url).searchParams.get("ledger_before");
    return json(await getUserOverview({ userId: params.id!, ledgerBefore }));
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") throw new Response("Not found", { status: 404 });
    throw error;
  }
}

export default function AdminUser() {
  const { user, subscription, quotas, ledger, items, history } = useLoaderData<typeof loader>();
  const { user: me } = useAuth();
  const { run, busy } = useAdminAction();
  const [disabling, setDisabling] = useState(false);
  const [disableReason, setDisableReason] = useState("");
  const isMe = me?.id === user.id;
  const name = user.email ?? user.display_name ?? user.id;

  const toggleAdmin = () =>
    confirmDialog({
      header: user.is_admin ? "Revoke admin rights" : "Grant admin rights",
      message: user.is_admin ? `${name} will no longer be an admin.` : `${name} will be able to run the whole admin area.`,
      acceptLabel: user.is_admin ? "Revoke" : "Grant",
      rejectLabel: "Cancel",
      defaultFocus: "reject",
      accept: () =>
        void run(
          (api) => api(`/admin/users/${user.id}/admin`, { method: "PUT", body: { is_admin: !user.is_admin } }),
          user.is_admin ? "Admin rights revoked." : "Admin rights granted.",
        ),
    });

  const disable = async (event: FormEvent) => {
    event.preventDefault();
    const done = await run(
      (api) => api(`/admin/users/${user.id}/disabled`, { method: "PUT", body: { disabled: true, reason: disableReason.trim() } }),
      "The user was disabled.",
    );
    if (done) {
      setDisabling(false);
      setDisableReason("");
    }
  };

  const enable = () =>
    run((api) => api(`/admin/users/${user.id}/disabled`, { method: "PUT", body: { disabled: false } }), "The user was enabled again.");

  return (
    <>
      <ConfirmDialog />
      <p>
        <Link to="/admin/users">← All users</Link>
      </p>
      <h1>{name}</h1>
      <div className="admin-grid">
        <section className="admin-panel" aria-labelledby="profile-heading">
          <h2 id="profile-heading">Account</h2>
          <dl className="settings-facts">
            <div>
              <dt>Email</dt>
              <dd>
                {user.email ?? "—"} {user.email_verified ? null : <span className="admin-tag is-off">Unverified</span>}
              </dd>
            </div>
            <div>
              <dt>Display name</dt>
              <dd>{user.display_name ?? "—"}</dd>
            </div>
            <div>
              <dt>Joined</dt>
              <dd>{formatDate(user.created_at)}</dd>
            </div>
            <div>
              <dt>Admin</dt>
              <dd data-testid="user-admin">{user.is_admin ? "Yes" : "No"}</dd>
            </div>
            <div>
              <dt>Status</dt>
              <dd data-testid="user-status">
                {user.disabled_at ? `Disabled on ${formatDateTime(user.disabled_at)}: ${user.disabled_reason ?? "no reason given"}` : "Active"}
              </dd>
            </div>
            <div>
              <dt>Plan</dt>
              <dd>
                {user.plan?.name ?? "—"}
                {subscription ? ` (${subscription.status}, ${subscription.provider}, renews ${formatDate(subscription.current_period_end)})` : ""}
              </dd>
            </div>
            <div>
              <dt>Public profile</dt>
              <dd>
                <Link to={`/u/${user.id}`}>/u/{user.id.slice(0, 8)}…</Link>
              </dd>
            </div>
          </dl>
          <div className="admin-actions">
            <Button
              type="button"
              outlined
              label={user.is_admin ? "Revoke admin" : "Grant admin"}
              onClick={toggleAdmin}
              disabled={busy || (isMe && user.is_admin)}
              tooltip={isMe && user.is_admin ? "You cannot revoke your own admin rights." : undefined}
            />
            {user.disabled_at ? (
              <Button type="button" label="Enable user" onClick={() => void enable()} disabled={busy} />
            ) : (
              <Button type="button" severity="danger" label="Disable user" onClick={() => setDisabling(true)} disabled={busy || isMe} />
            )}
          </div>
        </section>
        <section className="admin-panel" aria-labelledby="quotas-heading">
          <h2 id="quotas-heading">Quotas</h2>
          <dl className="settings-facts" data-testid="user-quotas">
            {quotaLines(quotas).map((line) => (
              <div key={line.key}>
                <dt>{line.label}</dt>
                <dd>{line.value}</dd>
              </div>
            ))}
          </dl>
          <h3 className="admin-subheading">Adjust credits</h3>
          <CreditAdjustmentForm userId={user.id} />
        </section>
      </div>
      <LedgerHistory entries={ledger.entries} olderHref={ledger.next_before ? `?ledger_before=${ledger.next_before}` : null} />
      <section className="admin-panel" aria-labelledby="items-heading">
        <h2 id="items-heading">Items (newest 100)</h2>
        {items.length === 0 ? (
          <p className="admin-help">No items.</p>
        ) : (
          <div className="admin-table-wrap">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Status</th>
                  <th scope="col">Visibility</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {items.map((item) => (
                  <tr key={item.id}>
                    <td>
                      <Link to={`/item/${item.id}`}>{item.name}</Link>
                    </td>
                    <td>{item.status}</td>
                    <td>
                      {item.visibility}
                      {item.unpublished_at ? <span className="admin-tag is-danger">Unpublished: {item.moderation_reason}</span> : null}
                    </td>
                    <td>{formatDate(item.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section className="admin-panel" aria-labelledby="history-heading">
        <h2 id="history-heading">Admin history</h2>
        <AuditTable entries={history} caption={`Admin actions on ${name}`} />
      </section>
      <Dialog header={`Disable ${name}?`} visible={disabling} onHide={() => !busy && setDisabling(false)} style={{ width: "min(30rem, 95vw)" }}>
        <form className="admin-form" onSubmit={disable}>
          <p>Their sign-in and API tokens stop working at once and their public items are hidden. Nothing is deleted; you can enable them again.</p>
          <label htmlFor="disable-reason">Reason</label>
          <InputText id="disable-reason" value={disableReason} maxLength={500} autoFocus onChange={(e) => setDisableReason(e.target.value)} />
          <div className="admin-actions">
            <Button type="button" text label="Cancel" onClick={() => setDisabling(false)} disabled={busy} />
            <Button type="submit" severity="danger" label="Disable user" loading={busy} disabled={disableReason.trim().length < 3} />
          </div>
        </form>
      </Dialog>
    </>
  );
}
