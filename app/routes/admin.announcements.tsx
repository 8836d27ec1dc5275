import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Button } from "primereact/button";
import { confirmDialog, ConfirmDialog } from "primereact/confirmdialog";
import { useEffect, useState } from "react";
import { requirePageAdmin } from "~/auth/require-admin.server";
import { AnnouncementEditor, type AnnouncementDraft } from "~/components/admin/announcement-editor";
import { SortableList } from "~/components/admin/sortable-list";
import { useAdminAction } from "~/components/admin/use-admin-action";
import { AnnouncementBanner } from "~/components/announcement-bar";
import { listAllAnnouncements, type AnnouncementDto } from "~/domain/announcements.server";
import { htmlToPlainText } from "~/lib/html-text";

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePageAdmin(request);
  return json({ announcements: await listAllAnnouncements() });
}

export default function AdminAnnouncements() {
  const { announcements } = useLoaderData<typeof loader>();
  const { run, busy } = useAdminAction();
  // The list as shown: a reorder shows at once and goes back if the server refuses it.
  const [list, setList] = useState(announcements);
  useEffect(() => setList(announcements), [announcements]);
  const [editing, setEditing] = useState<AnnouncementDto | "new" | null>(null);

  const save = async (draft: AnnouncementDraft) => {
    const saved =
      editing === "new"
        ? await run((api) => api("/admin/announcements", { method: "POST", body: draft }), "The announcement was created.")
        : await run((api) => api(`/admin/announcements/${(editing as AnnouncementDto).id}`, { method: "PUT", body: draft }), "The announcement was saved.");
    if (saved) setEditing(null);
  };

  const reorder = async (next: AnnouncementDto[]) => {
    const previous = list;
    setList(next);
    const saved = await run((api) => api("/admin/announcements/reorder", { method: "PUT", body: { announcementIds: next.map((a) => a.id) } }));
    if (!saved) setList(previous);
  };

  const setActive = (a: AnnouncementDto, isActive: boolean) =>
    run(
      (api) => api(`/admin/announcements/${a.id}`, { method: "PUT", body: { is_active: isActive } }),
      isActive ? "The announcement is shown to visitors." : "The announcement is hidden from visitors.",
    );

  const remove = (a: AnnouncementDto) =>
    confirmDialog({
      header: "Delete announcement",
      message: `Delete "${htmlToPlainText(a.content)}"? This cannot be undone.`,
      acceptLabel: "Delete",
      rejectLabel: "Cancel",
      acceptClassName: "p-button-danger",
      defaultFocus: "reject",
      accept: () => void run((api) => api(`/admin/announcements/${a.id}`, { method: "DELETE" }), "The announcement was deleted."),
    });

  return (
    <>
      <ConfirmDialog />
      <div className="admin-head">
        <h1>Announcements</h1>
        <Button label="New announcement" icon="pi pi-plus" onClick={() => setEditing("new")} />
      </div>
      <p className="admin-help">
        Visitors see the active ones as banners above every page, in this order. Drag a row by its handle, or focus the handle and
        press Space, the arrow keys, then Space again.
      </p>
      {list.length === 0 ? (
        <p className="empty-state">No announcements yet.</p>
      ) : (
        <SortableList
          id="admin-announcements"
          aria-label="Announcements, in the order visitors see them"
          items={list}
          disabled={busy}
          getLabel={(a) => htmlToPlainText(a.content, 40)}
          onReorder={(next) => void reorder(next)}
          renderItem={(a, handle) => (
            <>
              {handle}
              <div className="admin-row-main">
                <AnnouncementBanner preview announcement={a} />
                <span className="admin-row-meta">
                  <span className={a.is_active ? "admin-tag" : "admin-tag is-off"}>{a.is_active ? "Active" : "Inactive"}</span>
                  <span className={a.is_closable ? "admin-tag" : "admin-tag is-off"}>{a.is_closable ? "Closable" : "Always shown"}</span>
                </span>
              </div>
              <div className="admin-row-actions">
                <Button text size="small" label="Edit" aria-label={`Edit ${htmlToPlainText(a.content, 40)}`} onClick={() => setEditing(a)} disabled={busy} />
                <Button
                  text
                  size="small"
                  label={a.is_active ? "Deactivate" : "Activate"}
                  aria-label={`${a.is_active ? "Deactivate" : "Activate"} ${htmlToPlainText(a.content, 40)}`}
                  onClick={() => void setActive(a, !a.is_active)}
                  disabled={busy}
                />
                <Button
                  text
                  size="small"
                  severity="danger"
                  label="Delete"
                  aria-label={`Delete ${htmlToPlainText(a.content, 40)}`}
                  onClick={() => remove(a)}
                  disabled={busy}
                />
              </div>
            </>
          )}
        />
      )}
      {editing ? (
        <AnnouncementEditor
          announcement={editing === "new" ? null : editing}
          busy={busy}
          onSave={(draft) => void save(draft)}
          onCancel={() => setEditing(null)}
        />
      ) : null}
    </>
  );
}
