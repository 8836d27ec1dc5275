import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Button } from "primereact/button";
import { Dialog } from "primereact/dialog";
import { InputText } from "primereact/inputtext";
import { useState, type FormEvent } from "react";
import { requirePageAdmin } from "~/auth/require-admin.server";
import { useAdminAction } from "~/components/admin/use-admin-action";
import { listContactMessages } from "~/domain/contact.server";
import { listPublicItemsForModeration, type ModeratedItemDto } from "~/domain/moderation.server";
import { adminItemsQuerySchema } from "~/domain/schemas";
import { formatDateTime } from "~/lib/format";

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePageAdmin(request);
  const parsed = adminItemsQuerySchema.safeParse({ state: new URL(request.url).searchParams.get("state") ?? undefined });
  const state = parsed.success ? parsed.data.state : "all";
  const [items, messages] = await Promise.all([listPublicItemsForModeration({ state, limit: 50 }), listContactMessages({ limit: 50 })]);
  return json({ state, items, messages });
}

const STATES = [
  { value: "all", label: "All" },
  { value: "published", label: "Published" },
  { value: "unpublished", label: "Unpublished" },
] as const;

export default function AdminModeration() {
  const { state, items, messages } = useLoaderData<typeof loader>();
  const { run, busy } = useAdminAction();
  const [unpublishing, setUnpublishing] = useState<ModeratedItemDto | null>(null);
  const [reason, setReason] = useState("");

  const unpublish = async (event: FormEvent) => {
    event.preventDefault();
    if (!unpublishing) return;
    const { id, name } = unpublishing;
    const done = await run(
      (api) => api(`/admin/items/${id}/unpublish`, { method: "POST", body: { reason: reason.trim() } }),
      `"${name}" is hidden from everyone but its owner.`,
    );
    if (done) {
      setUnpublishing(null);
      setReason("");
    }
  };

  const restore = (item: ModeratedItemDto) =>
    run((api) => api(`/admin/items/${item.id}/restore`, { method: "POST" }), `"${item.name}" is published again.`);

  // Featured models lead Explore and the front door (issue 35 item 5); only a public, ready one can be featured.
  const setFeatured = (item: ModeratedItemDto, featured: boolean) =>
    run(
      (api) => api(`/admin/items/${item.id}/${featured ? "feature" : "unfeature"}`, { method: "POST" }),
      featured ? `"${item.name}" is featured: Explore and the front page show it first.` : `"${item.name}" is no longer featured.`,
    );

  return (
    <>
      <h1>Moderation</h1>
      <section className="admin-panel" aria-labelledby="items-heading">
        <div className="admin-head">
          <h2 id="items-heading">Recent public items</h2>
          <nav aria-label="Filter items" className="admin-row-actions">
            {STATES.map((s) => (
              <Link key={s.value} to={`?state=${s.value}`} aria-current={state === s.value ? "page" : undefined} className="p-button p-button-text p-button-sm">
                {s.label}
              </Link>
            ))}
          </nav>
        </div>
        {items.length === 0 ? (
          <p className="admin-help">No public items here.</p>
        ) : (
          <div className="admin-table-wrap">
            <table className="admin-table" data-testid="moderation-items">
              <thead>
                <tr>
                  <th scope="col">Item</th>
                  <th scope="col">Owner</th>
                  <th scope="col">Published</th>
                  <th scope="col">Featured</th>
                  <th scope="col">Action</th>
                </tr>
              </thead>
              <tbody>
                {items.map((item) => (
                  <tr key={item.id}>
                    <td>
                      <Link to={`/item/${item.id}`}>{item.name}</Link>
                      <div className="admin-row-meta">
                        {item.status} · {formatDateTime(item.created_at)}
                      </div>
                    </td>
                    <td>
                      <Link to={`/admin/users/${item.owner.id}`}>{item.owner.email ?? item.owner.display_name ?? item.owner.id}</Link>
                      {item.owner.disabled ? <span className="admin-tag is-danger">Disabled</span> : null}
                    </td>
                    <td>{item.unpublished_at ? <span className="admin-tag is-danger">Unpublished: {item.moderation_reason}</span> : "Yes"}</td>
                    <td>
                      {item.is_featured ? (
                        <Button text size="small" label="Unfeature" aria-label={`Unfeature ${item.name}`} onClick={() => void setFeatured(item, false)} disabled={busy} />
                      ) : item.status === "ready" && !item.unpublished_at ? (
                        <Button text size="small" label="Feature" aria-label={`Feature ${item.name}`} onClick={() => void setFeatured(item, true)} disabled={busy} />
                      ) : (
                        "—"
                      )}
                    </td>
                    <td>
                      {item.unpublished_at ? (
                        <Button text size="small" label="Restore" aria-label={`Restore ${item.name}`} onClick={() => void restore(item)} disabled={busy} />
                      ) : (
                        <Button
                          text
                          size="small"
                          severity="danger"
                          label="Unpublish"
                          aria-label={`Unpublish ${item.name}`}
                          onClick={() => setUnpublishing(item)}
                          disabled={busy}
                        />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section className="admin-panel" aria-labelledby="contact-heading">
        <h2 id="contact-heading">Contact messages</h2>
        {messages.length === 0 ? (
          <p className="admin-help">No messages.</p>
        ) : (
          <ul className="admin-list" data-testid="contact-messages">
            {messages.map((m) => (
              <li key={m.id} className="admin-list-row">
                <div className="admin-row-main">
                  <strong>{m.subject ?? "(no subject)"}</strong>
                  <span className="admin-row-meta">
                    {m.name} &lt;<a href={`mailto:${m.email}`}>{m.email}</a>&gt; · {formatDateTime(m.created_at)}
                    {m.user_id ? (
                      <>
                        {" "}
                        · <Link to={`/admin/users/${m.user_id}`}>account</Link>
                      </>
                    ) : null}
                  </span>
                  <p className="admin-message">{m.message}</p>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
      <Dialog
        header={unpublishing ? `Unpublish "${unpublishing.name}"?` : ""}
        visible={unpublishing !== null}
        onHide={() => !busy && setUnpublishing(null)}
        style={{ width: "min(30rem, 95vw)" }}
      >
        <form className="admin-form" onSubmit={unpublish}>
          <p>Only its owner will see it, with your reason. You can restore it later.</p>
          <label htmlFor="unpublish-reason">Reason (shown to the owner)</label>
          <InputText id="unpublish-reason" value={reason} maxLength={500} autoFocus onChange={(e) => setReason(e.target.value)} />
          <div className="admin-actions">
            <Button type="button" text label="Cancel" onClick={() => setUnpublishing(null)} disabled={busy} />
            <Button type="submit" severity="danger" label="Unpublish" loading={busy} disabled={reason.trim().length < 3} />
          </div>
        </form>
      </Dialog>
    </>
  );
}
