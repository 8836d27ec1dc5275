import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRevalidator, useSearchParams } from "@remix-run/react";
import { Button } from "primereact/button";
import { confirmDialog, ConfirmDialog } from "primereact/confirmdialog";
import { Dialog } from "primereact/dialog";
import { InputText } from "primereact/inputtext";
import { Tag } from "primereact/tag";
import { useEffect, useState } from "react";
import { requirePageUser } from "~/auth/require-user.server";
import { useAuth } from "~/auth/auth-provider";
import { ItemCard } from "~/components/item-card";
import { useToast } from "~/components/toast-provider";
import { presentItem } from "~/domain/item-presenter";
import { listItems } from "~/domain/items.server";
import { listItemsQuerySchema } from "~/domain/schemas";
import { formatBytes } from "~/lib/upload-rules";

export const meta: MetaFunction = () => [{ title: "My Dashboard — Scanroom" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePageUser(request);
  const page = await listItems({ viewerId: user.id, query: listItemsQuerySchema.parse({ owner: "me", limit: 100 }) });
  return json({ items: page.items.map((item) => presentItem(item, user.id)) });
}

const STATUS_SEVERITY = { ready: "success", failed: "danger", processing: "info", queued: "info", uploading: "warning" } as const;

export default function Dashboard() {
  const { items } = useLoaderData<typeof loader>();
  const { api } = useAuth();
  const toast = useToast();
  const revalidator = useRevalidator();
  const [params, setParams] = useSearchParams();
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null);

  // SPEC §2: ?refresh=true reloads the list after an upload.
  useEffect(() => {
    if (params.get("refresh") === "true") {
      revalidator.revalidate();
      setParams((p) => {
        p.delete("refresh");
        return p;
      }, { replace: true });
    }
  }, [params, revalidator, setParams]);

  const remove = (id: string, name: string) =>
    confirmDialog({
      header: "Delete model",
      message: `Delete "${name}"? Its files are removed for good.`,
      acceptLabel: "Delete",
      rejectLabel: "Cancel",
      acceptClassName: "p-button-danger",
      accept: async () => {
        try {
          await api(`/item/${id}`, { method: "DELETE" });
          toast({ severity: "success", summary: "Deleted", detail: `"${name}" was deleted.` });
          revalidator.revalidate();
        } catch (error) {
          toast({ severity: "error", summary: "Error!", detail: (error as Error).message });
        }
      },
    });

  const saveName = async () => {
    if (!renaming) return;
    try {
      await api(`/item/${renaming.id}`, { method: "PATCH", body: { name: renaming.name } });
      setRenaming(null);
      revalidator.revalidate();
    } catch (error) {
      toast({ severity: "error", summary: "Error!", detail: (error as Error).message });
    }
  };

  return (
    <section className="page">
      <ConfirmDialog />
      <h1>My Dashboard</h1>
      {items.length === 0 ? (
        <p className="empty-state">You have no models yet. Press New Model to upload a .glb, .ply or .ksplat file.</p>
      ) : (
        <div className="item-grid" data-testid="my-items">
          {items.map((item) => (
            <ItemCard key={item.id} item={item} showOwner={false}>
              <p className="item-card-meta">
                <Tag value={item.status} severity={STATUS_SEVERITY[item.status]} />{" "}
                {item.file_size ? formatBytes(item.file_size) : null} · {item.visibility}
              </p>
              {item.status_detail ? <p className="item-card-detail">{item.status_detail}</p> : null}
              <div className="item-card-actions">
                <Link to={`/item/${item.id}`} className="p-button p-button-sm p-button-text">
                  Open
                </Link>
                <Button size="small" text label="Rename" onClick={() => setRenaming({ id: item.id, name: item.name })} />
                <Button size="small" text severity="danger" label="Delete" onClick={() => remove(item.id, item.name)} />
              </div>
            </ItemCard>
          ))}
        </div>
      )}
      <Dialog header="Rename model" visible={renaming !== null} onHide={() => setRenaming(null)} style={{ width: "28rem" }}>
        <form
          className="auth-form"
          onSubmit={(event) => {
            event.preventDefault();
            void saveName();
          }}
        >
          <label htmlFor="rename-input">Name</label>
          <InputText id="rename-input" value={renaming?.name ?? ""} maxLength={200} onChange={(e) => setRenaming((r) => (r ? { ...r, name: e.target.value } : r))} autoFocus />
          <Button type="submit" label="Save" disabled={!renaming?.name.trim()} />
        </form>
      </Dialog>
    </section>
  );
}
