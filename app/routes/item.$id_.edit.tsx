import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { Button } from "primereact/button";
import { ConfirmDialog } from "primereact/confirmdialog";
import { lazy, Suspense, useState, type FormEvent } from "react";
import { useAuth } from "~/auth/auth-provider";
import { requirePageUser } from "~/auth/require-user.server";
import { AnnotatedViewer } from "~/components/annotated-viewer";
import { AnnotationEditorPanel, useAnnotationEditor } from "~/components/annotation-editor";
import { ItemDetailsFields, readTags, type DetailsForm } from "~/components/item-details-fields";
import { MeasureScalePanel } from "~/components/measure-scale-panel";
import { useToast } from "~/components/toast-provider";
import { listAnnotations } from "~/domain/annotations.server";
import { listCategories } from "~/domain/categories.server";
import { isAppError } from "~/lib/errors";
import { getOwnedItem, getVisibleItem } from "~/domain/item-access.server";
import { getPlanInForce } from "~/domain/plans.server";
import { uuidSchema } from "~/domain/schemas";
import { getCurrentUserWithPlan } from "~/domain/users.server";
import { uploadItemThumbnail } from "~/components/item-thumbnail";
import { checkImageFile, IMAGE_ACCEPT } from "~/lib/image-rules";
import type { RouteHandle } from "~/lib/route-handle";
import { hasSomethingToView } from "~/domain/item-presenter";
import { presentViewableItem } from "~/domain/scenes.server";
import { isSplatFormat } from "~/formats/model-format";

// The clean-up editor brings three.js and the viewer: loaded only when the owner opens it.
const SplatEditor = lazy(() => import("~/components/splat-editor"));

export const handle: RouteHandle = { layout: false };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requirePageUser(request);
  if (!uuidSchema.safeParse(params.id).success) throw new Response("Not found", { status: 404 });
  try {
    // Only the owner edits; anyone else gets the same 404 as for an unknown id.
    await getOwnedItem({ itemId: params.id!, ownerId: user.id });
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") throw new Response("Not found", { status: 404 });
    throw error;
  }
  const [item, categories, account, annotations, plan] = await Promise.all([
    getVisibleItem({ itemId: params.id!, viewerId: user.id }),
    listCategories(),
    getCurrentUserWithPlan({ userId: user.id }),
    listAnnotations({ itemId: params.id! }),
    getPlanInForce({ userId: user.id }),
  ]);
  return json({
    item: await presentViewableItem(item, user.id),
    categories,
    canRemoveWatermark: account.subscription?.plan.watermarkRemoval ?? false,
    annotations,
    annotationQuota: plan.annotationQuota,
  });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Edit ${data.item.name} — Scanroom` : "Edit — Scanroom" }];

export default function EditItem() {
  const { item, categories, canRemoveWatermark, annotations, annotationQuota } = useLoaderData<typeof loader>();
  const annotationEditor = useAnnotationEditor({ itemId: item.id, initial: annotations, quota: annotationQuota });
  const [measured, setMeasured] = useState<number | null>(null);
  const { api } = useAuth();
  const toast = useToast();
  const revalidator = useRevalidator();
  const [form, setForm] = useState<DetailsForm>({
    name: item.name,
    description: item.description ?? "",
    category_id: item.category_id ?? "",
    tags: item.tags.join(", "),
    license: item.license,
  });
  const [visibility, setVisibility] = useState(item.visibility);
  const tags = readTags(form);
  const [busy, setBusy] = useState<null | "details" | "thumbnail" | "watermark">(null);
  const [cleaning, setCleaning] = useState(false);
  const canCleanUp = item.kind !== "scene" && item.status === "ready" && isSplatFormat(item.file_format);

  const fail = (error: unknown) => toast({ severity: "error", summary: "Error!", detail: (error as Error).message });

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy("details");
    try {
      await api(`/item/${item.id}`, {
        method: "PATCH",
        body: {
          name: form.name,
          description: form.description,
          visibility,
          category_id: form.category_id || null,
          tags: tags.tags,
          license: form.license,
        },
      });
      toast({ severity: "success", summary: "Saved", detail: "Your changes were saved." });
      revalidator.revalidate();
    } catch (error) {
      fail(error);
    } finally {
      setBusy(null);
    }
  };

  const uploadThumbnail = async (file: File | undefined) => {
    if (!file) return;
    const problem = checkImageFile(file);
    if (problem) return toast({ severity: "warn", summary: "Thumbnail not changed", detail: problem });
    setBusy("thumbnail");
    try {
      await uploadItemThumbnail(api, item.id, file);
      toast({ severity: "success", summary: "Saved", detail: "The thumbnail was updated." });
      revalidator.revalidate();
    } catch (error) {
      fail(error);
    } finally {
      setBusy(null);
    }
  };

  const removeThumbnail = async () => {
    setBusy("thumbnail");
    try {
      await api(`/item/${item.id}/thumbnail`, { method: "PUT", body: { path: null } });
      revalidator.revalidate();
    } catch (error) {
      fail(error);
    } finally {
      setBusy(null);
    }
  };

  const setWatermark = async (enabled: boolean) => {
    setBusy("watermark");
    try {
      await api(`/item/${item.id}/embed/watermark`, { method: "PATCH", body: { is_watermark_enabled: enabled } });
      revalidator.revalidate();
    } catch (error) {
      fail(error);
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="edit-page">
      <ConfirmDialog />
      <header className="edit-bar">
        <Link to={`/item/${item.id}`} className="p-button p-button-text">
          <i className="pi pi-arrow-left" aria-hidden="true" />
          &nbsp;Back to model
        </Link>
        <h1>Edit “{item.name}”</h1>
      </header>
      {cleaning ? (
        <div className="edit-body">
          <Suspense fallback={<p className="edit-preview empty-state">Opening the editor…</p>}>
            <SplatEditor itemId={item.id} onClose={() => setCleaning(false)} onChanged={() => revalidator.revalidate()} />
          </Suspense>
        </div>
      ) : (
        <div className="edit-body">
          <div className="edit-preview">
            {hasSomethingToView(item) ? (
              <AnnotatedViewer
                item={item}
                annotations={annotationEditor.annotations}
                selectedId={annotationEditor.selectedId}
                onSelect={annotationEditor.setSelectedId}
                onPick={annotationEditor.placing ? annotationEditor.place : null}
                onMeasure={setMeasured}
                onViewer={annotationEditor.onViewer}
              />
            ) : (
              <p className="empty-state">No model file yet ({item.status}).</p>
            )}
          </div>
          <div className="edit-panels">
            {canCleanUp ? (
              <section className="edit-panel" aria-labelledby="cleanup-open-heading">
                <h2 id="cleanup-open-heading">Clean up splats</h2>
                <p className="item-panel-note">Remove floaters with a crop box, brush or lasso; each save is a new version, and earlier ones can be restored.</p>
                <Button type="button" label="Open the clean-up editor" icon="pi pi-eraser" onClick={() => setCleaning(true)} />
              </section>
            ) : null}
            <form className="edit-panel" onSubmit={save} aria-labelledby="details-heading">
              <h2 id="details-heading">Details</h2>
              <ItemDetailsFields idPrefix="edit" form={form} onChange={setForm} categories={categories} nameRequired />
              <label htmlFor="edit-visibility">Visibility</label>
              <select id="edit-visibility" className="p-inputtext" value={visibility} onChange={(e) => setVisibility(e.target.value as typeof visibility)}>
                <option value="public">Public — listed on Explore and your profile</option>
                <option value="unlisted">Unlisted — anyone with the link</option>
                <option value="private">Private — only you</option>
              </select>
              <Button type="submit" label="Save changes" loading={busy === "details"} disabled={!form.name.trim() || tags.problem !== null || busy !== null} />
            </form>
            {hasSomethingToView(item) ? <AnnotationEditorPanel editor={annotationEditor} /> : null}
            {hasSomethingToView(item) ? <MeasureScalePanel itemId={item.id} settings={item.settings} measured={measured} onSaved={() => revalidator.revalidate()} /> : null}
            <section className="edit-panel" aria-labelledby="thumb-heading">
              <h2 id="thumb-heading">Thumbnail</h2>
              {item.thumbnail_url ? <img className="edit-thumb" src={item.thumbnail_url} alt={`Thumbnail of ${item.name}`} /> : <p className="item-panel-note">No thumbnail yet: Explore shows a placeholder.</p>}
              <label htmlFor="edit-thumb-file">Upload an image (JPEG, PNG, WebP or GIF, up to 2 MB)</label>
              <input id="edit-thumb-file" type="file" accept={IMAGE_ACCEPT} disabled={busy !== null} onChange={(e) => void uploadThumbnail(e.target.files?.[0])} />
              {item.thumbnail_url ? <Button type="button" label="Remove thumbnail" text severity="danger" onClick={removeThumbnail} disabled={busy !== null} /> : null}
            </section>
            <section className="edit-panel" aria-labelledby="embed-heading">
              <h2 id="embed-heading">Embedding</h2>
              <label className="edit-check">
                <input type="checkbox" checked={item.is_watermark_enabled} disabled={busy !== null || (item.is_watermark_enabled && !canRemoveWatermark)} onChange={(e) => void setWatermark(e.target.checked)} />
                Show the Scanroom watermark in embeds
              </label>
              {!canRemoveWatermark ? <p className="item-panel-note">Removing the watermark is part of the Growth and Pro plans. <Link to="/pricing">See plans</Link></p> : null}
            </section>
          </div>
        </div>
      )}
    </div>
  );
}
