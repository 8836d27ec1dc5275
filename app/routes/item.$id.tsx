import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useNavigate, useRevalidator } from "@remix-run/react";
import { Button } from "primereact/button";
import { ConfirmDialog } from "primereact/confirmdialog";
import { useCallback, useRef, useState } from "react";
import { useAuth } from "~/auth/auth-provider";
import { CopyField } from "~/components/copy-field";
import { DownloadsPanel, showsDownloads } from "~/components/downloads-panel";
import { ItemStatus } from "~/components/item-status";
import { LicenseNote } from "~/components/license-note";
import { ModelVariantSwitch, type ModelVariant } from "~/components/model-variant-switch";
import { AnnotatedViewer } from "~/components/annotated-viewer";
import { ScanPanel } from "~/components/scan-panel";
import { ShareButtons } from "~/components/share-buttons";
import { TurntablePanel } from "~/components/turntable-panel";
import { ShareEmbedDialog } from "~/components/share-embed-dialog";
import { hasSomethingToView } from "~/domain/item-presenter";
import { useToast } from "~/components/toast-provider";
import { listAnnotations } from "~/domain/annotations.server";
import { embedCode, shareUrl } from "~/lib/embed-code";
import { formatCount, formatDate, pluralize } from "~/lib/format";
import { formatBytes } from "~/lib/upload-rules";
import { usePublicEnv } from "~/components/use-public-env";
import { IN_PROGRESS_STATUSES, useRevalidateWhile } from "~/components/use-revalidate-while";
import { appUrlFromMatches, itemSocialMeta } from "~/pages/social-meta";
import { loadVisibleItem } from "~/pages/visible-item.server";
import { loaderCacheHeaders } from "~/lib/public-page-cache";
import { useConfirmDeleteItem } from "~/components/use-confirm-delete-item";
import { useViewerPreview } from "~/components/viewer-preview";
import type { Viewer } from "~/viewer";
import { getCameraView } from "~/viewer/camera-view";
import { captureFrame } from "~/viewer/capture-frame";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  // A view counts on the server, once per page load, never for the owner.
  const { item, headers, signedOut } = await loadVisibleItem(request, params.id, { countView: true, context });
  return json({ item, annotations: await listAnnotations({ itemId: item.id, signedOutReader: signedOut }) }, { headers });
}

export const headers = loaderCacheHeaders;

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const appUrl = appUrlFromMatches(matches);
  return [
    { title: data ? `${data.item.name} — Scanroom` : "Model — Scanroom" },
    ...(data && data.item.visibility !== "public" ? [{ name: "robots", content: "noindex" }] : []),
    // Link previews and oEmbed discovery (issue 6) for models anyone with the link may see.
    ...(data && appUrl ? itemSocialMeta(data.item, appUrl) : []),
  ];
};

const VISIBILITY_HELP = {
  public: "Anyone can find it on Explore and on your profile.",
  unlisted: "Anyone with the link can open it; it is never listed.",
  private: "Only you can open it.",
} as const;

export default function ItemPage() {
  const { item, annotations } = useLoaderData<typeof loader>();
  const { api } = useAuth();
  const env = usePublicEnv();
  const toast = useToast();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [editingName, setEditingName] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [sharing, setSharing] = useState(false);
  const [variant, setVariant] = useState<ModelVariant>("splat");
  const viewerRef = useRef<Viewer | null>(null);
  const onViewer = useCallback((viewer: Viewer) => {
    viewerRef.current = viewer;
    return () => {
      if (viewerRef.current === viewer) viewerRef.current = null;
    };
  }, []);
  const viewerPreview = useViewerPreview(viewerRef, item.settings.background);
  useRevalidateWhile(item.is_owner && IN_PROGRESS_STATUSES.has(item.status));

  const patch = async (body: Record<string, unknown>, done: string) => {
    setSaving(true);
    try {
      await api(`/item/${item.id}`, { method: "PATCH", body });
      toast({ severity: "success", summary: "Saved", detail: done });
      revalidator.revalidate();
      return true;
    } catch (error) {
      toast({ severity: "error", summary: "Error!", detail: (error as Error).message });
      return false;
    } finally {
      setSaving(false);
    }
  };

  const confirmDelete = useConfirmDeleteItem(() => navigate("/dashboard"));
  const remove = () => confirmDelete(item);

  return (
    <section className="page item-page">
      <ConfirmDialog />
      {item.is_owner ? (
        <ShareEmbedDialog
          item={item}
          shareOrigin={env.shareOrigin}
          visible={sharing}
          onHide={() => setSharing(false)}
          getCurrentView={() => (viewerRef.current ? getCameraView(viewerRef.current.stage) : null)}
          captureView={() => (viewerRef.current ? captureFrame(viewerRef.current) : null)}
          onChange={() => revalidator.revalidate()}
          preview={viewerPreview}
        />
      ) : null}
      <div className="item-viewer-frame">
        {hasSomethingToView(item) ? (
          <AnnotatedViewer key={variant} item={item} annotations={annotations} onViewer={onViewer} show={variant} />
        ) : (
          <div className="item-viewer-empty">
            {item.kind === "scene" ? (
              <p className="item-panel-note">This scene is empty.</p>
            ) : (
              <ItemStatus status={item.status} detail={item.status_detail} progress={item.progress} />
            )}
          </div>
        )}
      </div>
      <div className="item-layout">
        <header className="item-header">
          {editingName !== null ? (
            <form
              className="item-rename"
              onSubmit={async (event) => {
                event.preventDefault();
                if (await patch({ name: editingName }, "The model was renamed.")) setEditingName(null);
              }}
            >
              <label htmlFor="item-name" className="sr-only">
                Model name
              </label>
              <input id="item-name" className="p-inputtext" value={editingName} maxLength={200} autoFocus onChange={(e) => setEditingName(e.target.value)} />
              <Button type="submit" label="Save" loading={saving} disabled={!editingName.trim()} />
              <Button type="button" label="Cancel" text onClick={() => setEditingName(null)} />
            </form>
          ) : (
            <h1>{item.name}</h1>
          )}
          <p className="item-meta">
            by <Link to={`/u/${item.owner.id}`}>{item.owner.display_name ?? "Anonymous"}</Link> ·{" "}
            <time dateTime={item.created_at}>{formatDate(item.created_at)}</time> ·{" "}
            <span data-testid="item-view-count">{pluralize(item.view_count, "view")}</span>
            {item.file_size ? ` · ${formatBytes(item.file_size)}` : ""}
            {item.is_preview ? " · preview" : ""}
          </p>
          {item.description ? <p className="item-description">{item.description}</p> : null}
          {item.tags.length > 0 ? (
            <ul className="item-tags" aria-label="Tags">
              {item.tags.map((tag) => (
                <li key={tag}>
                  <Link to={`/?q=${encodeURIComponent(tag)}`}>#{tag}</Link>
                </li>
              ))}
            </ul>
          ) : null}
          {/* With the download button where there is one (the Download panel), else here. */}
          {showsDownloads(item) ? null : <LicenseNote license={item.license} testId="item-license" />}
          <p className="item-actions-row">
            {item.mesh_url ? <ModelVariantSwitch value={variant} onChange={setVariant} /> : null}
            <Link to={`/viewer/${item.id}`} className="p-button p-button-outlined p-button-sm">
              <i className="pi pi-window-maximize" aria-hidden="true" />
              &nbsp;Full screen
            </Link>
          </p>
        </header>
        <aside className="item-side">
          {item.is_owner ? (
            <section className="item-panel" aria-labelledby="owner-tools">
              <h2 id="owner-tools">Manage</h2>
              {hasSomethingToView(item) ? null : (
                <p className="item-panel-note">{item.kind === "scene" ? "No models in this scene yet: add some in the Builder." : "No model file yet."}</p>
              )}
              <div className="item-owner-actions">
                <Button size="small" outlined icon="pi pi-pencil" label="Rename" onClick={() => setEditingName(item.name)} />
                <Link to={`/item/${item.id}/edit`} className="p-button p-button-sm p-button-outlined">
                  <i className="pi pi-sliders-h" aria-hidden="true" />
                  &nbsp;Edit
                </Link>
                {item.kind === "scene" || item.model_url ? (
                  <Link to={`/builder/${item.id}`} className="p-button p-button-sm p-button-outlined">
                    <i className="pi pi-objects-column" aria-hidden="true" />
                    &nbsp;{item.kind === "scene" ? "Open in Builder" : "Use in a scene"}
                  </Link>
                ) : null}
                <Button size="small" outlined icon="pi pi-share-alt" label="Share / Embed" onClick={() => setSharing(true)} />
                <Button size="small" outlined severity="danger" icon="pi pi-trash" label="Delete" onClick={remove} />
              </div>
              {item.status === "draft" ? (
                <p className="item-panel-note" data-testid="visibility-help">
                  A draft: only you can open it until it is saved in the Builder; then its visibility applies.
                </p>
              ) : (
                <>
                  <label htmlFor="item-visibility">Visibility</label>
                  <select
                    id="item-visibility"
                    className="p-inputtext"
                    value={item.visibility}
                    disabled={saving}
                    onChange={(e) => void patch({ visibility: e.target.value }, `The ${item.kind === "scene" ? "scene" : "model"} is now ${e.target.value}.`)}
                  >
                    <option value="public">Public</option>
                    <option value="unlisted">Unlisted</option>
                    <option value="private">Private</option>
                  </select>
                  <p className="item-panel-note" data-testid="visibility-help">
                    {VISIBILITY_HELP[item.visibility]}
                  </p>
                </>
              )}
              {item.moderation_reason ? <p className="item-panel-warn">Unpublished by a moderator: {item.moderation_reason}</p> : null}
              <p className="item-panel-note">{formatCount(item.view_count)} views by others so far.</p>
            </section>
          ) : null}
          {item.is_owner && (item.upload_type === "video" || item.upload_type === "image") ? (
            <ScanPanel itemId={item.id} version={`${item.status}:${item.updated_at}`} onChange={() => revalidator.revalidate()} />
          ) : null}
          <TurntablePanel item={item} />
          <DownloadsPanel
            item={item}
            saving={saving}
            onAllowDownloads={(allow) => void patch({ allow_downloads: allow }, allow ? "Others can now download this model." : "Only you can download this model now.")}
          />
          {item.visibility !== "private" ? (
            <section className="item-panel" aria-labelledby="share-heading">
              <h2 id="share-heading">Share</h2>
              <CopyField label="Share link" value={shareUrl(env.shareOrigin, item.id)} testId="share-link" />
              <CopyField label="Embed code" value={embedCode(env.shareOrigin, item)} multiline testId="embed-code" />
              <ShareButtons url={shareUrl(env.shareOrigin, item.id)} title={item.name} />
            </section>
          ) : (
            <section className="item-panel" aria-labelledby="share-heading">
              <h2 id="share-heading">Share</h2>
              <p className="item-panel-note">This model is private. Make it public or unlisted to get a share link and embed code.</p>
            </section>
          )}
        </aside>
      </div>
    </section>
  );
}
