import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData, useRevalidator, useSearchParams } from "@remix-run/react";
import { Button } from "primereact/button";
import { ItemCardActions } from "~/components/item-card-actions";
import { ConfirmDialog } from "primereact/confirmdialog";
import { Dialog } from "primereact/dialog";
import { InputText } from "primereact/inputtext";
import { useCallback, useEffect, useState } from "react";
import { requirePageUser } from "~/auth/require-user.server";
import { useAuth } from "~/auth/auth-provider";
import { ItemCard } from "~/components/item-card";
import { ItemStatus } from "~/components/item-status";
import { RecentCredits } from "~/components/ledger-history";
import { QuotaSummary } from "~/components/quota-summary";
import { useToast } from "~/components/toast-provider";
import { useUploadDialog } from "~/components/upload-dialog-provider";
import { presentItem } from "~/domain/item-presenter";
import { listItems } from "~/domain/items.server";
import { listLedgerHistory } from "~/domain/ledger-history.server";
import { assertPageCursor } from "~/domain/pagination";
import { listItemsQuerySchema } from "~/domain/schemas";
import { formatBytes } from "~/lib/upload-rules";
import { usePagedItems } from "~/components/use-paged-items";
import { IN_PROGRESS_STATUSES, useRevalidateWhile } from "~/components/use-revalidate-while";
import { useConfirmDeleteItem } from "~/components/use-confirm-delete-item";
import { Message } from "primereact/message";
import { LoadMore } from "~/components/load-more";
import { getScanAvailability } from "~/domain/scan-availability.server";

export const meta: MetaFunction = () => [{ title: "My Dashboard — Scanroom" }];

const PAGE_SIZE = 48;
/** While a model is uploading or being scanned, the list refreshes itself this often. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePageUser(request);
  const cursor = new URL(request.url).searchParams.get("cursor") || undefined;
  assertPageCursor(cursor, "newest");
  const page = await listItems({ viewerId: user.id, query: listItemsQuerySchema.parse({ owner: "me", limit: PAGE_SIZE, cursor }) });
  // The latest credit movements (issue 8), for the first page only (later pages load items alone).
  const recentCredits = cursor ? [] : (await listLedgerHistory({ userId: user.id, limit: 5 })).entries;
  const scans = await getScanAvailability();
  return json({
    items: page.items.map((item) => presentItem(item, user.id)),
    nextCursor: page.next_cursor,
    recentCredits,
    scansUnavailable: scans.available ? null : scans.message,
  });
}

export default function Dashboard() {
  const data = useLoaderData<typeof loader>();
  const { api } = useAuth();
  const toast = useToast();
  const revalidator = useRevalidator();
  const { open: openUpload } = useUploadDialog();
  const [params, setParams] = useSearchParams();
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null);
  const [quotaKey, setQuotaKey] = useState(0);
  const pageUrl = useCallback((cursor: string) => `/dashboard?cursor=${encodeURIComponent(cursor)}`, []);
  const { items, hasMore, loading, loadMore, sentinel } = usePagedItems(data, pageUrl);

  // SPEC §2: ?refresh=true reloads the list (and the quotas) after an upload.
  useEffect(() => {
    if (params.get("refresh") === "true") {
      revalidator.revalidate();
      setQuotaKey((k) => k + 1);
      setParams(
        (p) => {
          p.delete("refresh");
          return p;
        },
        { replace: true },
      );
    }
  }, [params, revalidator, setParams]);

  // Scans report their stage and progress as they go: keep the list fresh while any is under way.
  useRevalidateWhile(items.some((item) => IN_PROGRESS_STATUSES.has(item.status)), 5000);

  const remove = useConfirmDeleteItem(revalidator.revalidate);

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
    <section className="page dashboard">
      <ConfirmDialog />
      <div className="dashboard-head">
        <h1>My Dashboard</h1>
        <Button label="New Model" icon="pi pi-plus" outlined onClick={() => openUpload()} />
      </div>
      {data.scansUnavailable ? (
        <Message className="dashboard-notice" severity="warn" text={data.scansUnavailable} data-testid="scans-unavailable" />
      ) : null}
      <div className="dashboard-layout">
        <div className="dashboard-main">
          {items.length === 0 ? (
            <section className="first-step" aria-labelledby="first-step-heading" data-testid="first-step">
              <h2 id="first-step-heading">Make your first model</h2>
              <p>
                You have no models yet. Scan an object from a video or a set of photos taken around it, or bring a .glb, .ply, .ksplat, .spz,
                .splat or .sog file you already have.
              </p>
              <Button label="Upload a video, photos or a model" icon="pi pi-upload" onClick={() => openUpload()} />
            </section>
          ) : (
            <div className="item-grid" data-testid="my-items">
              {items.map((item) => (
                <ItemCard key={item.id} item={item} showOwner={false}>
                  <ItemStatus status={item.status} detail={item.status_detail} progress={item.progress} />
                  <p className="item-card-meta">
                    <span className={`visibility-badge visibility-${item.visibility}`}>{item.visibility}</span>
                    {item.file_size ? ` · ${formatBytes(item.file_size)}` : null} · {item.view_count} views
                  </p>
                  <ItemCardActions itemId={item.id} onRename={() => setRenaming({ id: item.id, name: item.name })} onDelete={() => remove(item)} />
                </ItemCard>
              ))}
            </div>
          )}
          <LoadMore hasMore={hasMore} loading={loading} onLoadMore={loadMore} sentinel={sentinel} />
        </div>
        <aside className="dashboard-side">
          <QuotaSummary refreshKey={quotaKey} />
          <RecentCredits entries={data.recentCredits} />
        </aside>
      </div>
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
