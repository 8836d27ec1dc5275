import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Button } from "primereact/button";
import { confirmDialog, ConfirmDialog } from "primereact/confirmdialog";
import { InputText } from "primereact/inputtext";
import { useEffect, useState, type FormEvent } from "react";
import { requirePageAdmin } from "~/auth/require-admin.server";
import { SortableList } from "~/components/admin/sortable-list";
import { useAdminAction } from "~/components/admin/use-admin-action";
import { listCategoriesForAdmin } from "~/domain/categories.server";
import { pluralize } from "~/lib/format";

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePageAdmin(request);
  return json({ categories: await listCategoriesForAdmin() });
}

type CategoryRow = Awaited<ReturnType<typeof listCategoriesForAdmin>>[number];

export default function AdminCategories() {
  const { categories } = useLoaderData<typeof loader>();
  const { run, busy } = useAdminAction();
  const [list, setList] = useState(categories);
  useEffect(() => setList(categories), [categories]);
  const [newName, setNewName] = useState("");
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    const name = newName.trim();
    if (await run((api) => api("/admin/categories", { method: "POST", body: { name } }), `"${name}" was added.`)) setNewName("");
  };

  const rename = async (event: FormEvent) => {
    event.preventDefault();
    if (!renaming) return;
    const { id, name } = renaming;
    if (await run((api) => api(`/admin/categories/${id}`, { method: "PUT", body: { name: name.trim() } }), "The category was renamed.")) {
      setRenaming(null);
    }
  };

  const reorder = async (next: CategoryRow[]) => {
    const previous = list;
    setList(next);
    if (!(await run((api) => api("/admin/categories/reorder", { method: "PUT", body: { categoryIds: next.map((c) => c.id) } })))) {
      setList(previous);
    }
  };

  const remove = (c: CategoryRow) =>
    confirmDialog({
      header: "Delete category",
      message: `Delete "${c.name}"? Its ${pluralize(c.item_count, "item")} stay, without a category.`,
      acceptLabel: "Delete",
      rejectLabel: "Cancel",
      acceptClassName: "p-button-danger",
      defaultFocus: "reject",
      accept: () => void run((api) => api(`/admin/categories/${c.id}`, { method: "DELETE" }), `"${c.name}" was deleted.`),
    });

  return (
    <>
      <ConfirmDialog />
      <h1>Categories</h1>
      <section className="admin-panel" aria-labelledby="new-category-heading">
        <h2 id="new-category-heading">New category</h2>
        <form className="admin-form-row" onSubmit={create}>
          <div className="admin-field">
            <label htmlFor="new-category-name">Name</label>
            <InputText id="new-category-name" value={newName} maxLength={60} onChange={(e) => setNewName(e.target.value)} />
          </div>
          <div className="admin-actions">
            <Button type="submit" label="Add category" icon="pi pi-plus" disabled={!newName.trim() || busy} />
          </div>
        </form>
      </section>
      <p className="admin-help">Explore lists categories in this order. Drag a row by its handle, or use the handle with Space and the arrow keys.</p>
      <SortableList
        id="admin-categories"
        aria-label="Categories, in the order Explore shows them"
        items={list}
        disabled={busy}
        getLabel={(c) => c.name}
        onReorder={(next) => void reorder(next)}
        renderItem={(c, handle) => (
          <>
            {handle}
            <div className="admin-row-main">
              {renaming?.id === c.id ? (
                <form className="admin-form-row" onSubmit={rename}>
                  <InputText
                    aria-label={`New name for ${c.name}`}
                    value={renaming.name}
                    maxLength={60}
                    autoFocus
                    onChange={(e) => setRenaming({ id: c.id, name: e.target.value })}
                  />
                  <div className="admin-actions">
                    <Button type="submit" size="small" label="Save" disabled={!renaming.name.trim() || busy} />
                    <Button type="button" size="small" text label="Cancel" onClick={() => setRenaming(null)} />
                  </div>
                </form>
              ) : (
                <strong>{c.name}</strong>
              )}
              <span className="admin-row-meta">
                /{c.slug} · {pluralize(c.item_count, "item")}
              </span>
            </div>
            <div className="admin-row-actions">
              <Button text size="small" label="Rename" aria-label={`Rename ${c.name}`} onClick={() => setRenaming({ id: c.id, name: c.name })} disabled={busy} />
              <Button text size="small" severity="danger" label="Delete" aria-label={`Delete ${c.name}`} onClick={() => remove(c)} disabled={busy} />
            </div>
          </>
        )}
      />
    </>
  );
}
