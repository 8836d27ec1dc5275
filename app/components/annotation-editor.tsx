/**
 * The owner's annotation editor at /item/{id}/edit: place hotspots by clicking the model, write a
 * title and rich text, add a picture, save a camera view for the tour, reorder (drag or keyboard),
 * delete. Every change goes through the /v1 annotation endpoints, which enforce the plan's quota.
 */
import { Button } from "primereact/button";
import { confirmDialog } from "primereact/confirmdialog";
import { useCallback, useRef, useState, type CSSProperties } from "react";
import { useAuth } from "~/auth/auth-provider";
import { ANNOTATION_TITLE_MAX, annotationQuotaMessage, type UpdateAnnotationInput } from "~/domain/annotation-schemas";
import type { AnnotationDto } from "~/domain/annotations.server";
import { checkImageFile, IMAGE_ACCEPT } from "~/lib/image-rules";
import { xhrPut } from "~/components/upload-flows";
import type { Viewer } from "~/viewer";
import type { SurfaceHit } from "~/viewer/addons";
import { getCameraView } from "~/viewer/camera-view";
import { SortableList } from "./admin/sortable-list";
import { RichTextEditor } from "./rich-text-editor";
import { useToast } from "./toast-provider";

type Placing = null | { annotationId: string | null };

export function useAnnotationEditor({ itemId, initial, quota }: { itemId: string; initial: AnnotationDto[]; quota: number }) {
  const { api } = useAuth();
  const toast = useToast();
  const [annotations, setAnnotations] = useState(initial);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [placing, setPlacing] = useState<Placing>(null);
  const [busy, setBusy] = useState(false);
  const viewerRef = useRef<Viewer | null>(null);
  const base = `/item/${itemId}/annotations`;

  const onViewer = useCallback((viewer: Viewer) => {
    viewerRef.current = viewer;
    return () => {
      if (viewerRef.current === viewer) viewerRef.current = null;
    };
  }, []);

  const run = async <T,>(work: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    try {
      return await work();
    } catch (error) {
      toast({ severity: "error", summary: "Error!", detail: (error as Error).message });
      return undefined;
    } finally {
      setBusy(false);
    }
  };

  const replace = (next: AnnotationDto) => setAnnotations((list) => list.map((a) => (a.id === next.id ? next : a)));

  const place = async (hit: SurfaceHit) => {
    const target = placing;
    setPlacing(null);
    if (target?.annotationId) {
      const moved = await run(() => api<AnnotationDto>(`${base}/${target.annotationId}`, { method: "PATCH", body: { position: hit.point, normal: hit.normal } }));
      if (moved) replace(moved);
      return;
    }
    const viewer = viewerRef.current;
    const created = await run(() =>
      api<AnnotationDto>(base, {
        method: "POST",
        body: {
          title: `Annotation ${annotations.length + 1}`,
          position: hit.point,
          normal: hit.normal,
          camera: viewer ? getCameraView(viewer.stage) : null,
        },
      }),
    );
    if (created) {
      setAnnotations((list) => [...list, created]);
      setSelectedId(created.id);
    }
  };

  const placeAtCenter = async () => {
    const viewer = viewerRef.current;
    if (!viewer) return;
    const { pickCenter } = await import("~/viewer/addons");
    const hit = pickCenter(viewer);
    if (hit) await place(hit);
    else toast({ severity: "warn", summary: "Nothing there", detail: "Turn the model so that its surface is at the centre of the view." });
  };

  const update = async (id: string, changes: UpdateAnnotationInput, done?: string) => {
    const saved = await run(() => api<AnnotationDto>(`${base}/${id}`, { method: "PATCH", body: changes }));
    if (saved) {
      replace(saved);
      if (done) toast({ severity: "success", summary: "Saved", detail: done });
    }
    return saved;
  };

  const saveView = (id: string) => {
    const viewer = viewerRef.current;
    if (viewer) void update(id, { camera: getCameraView(viewer.stage) }, "The tour will show this view.");
  };

  const remove = async (id: string) => {
    const ok = await run(() => api(`${base}/${id}`, { method: "DELETE" }).then(() => true));
    if (!ok) return;
    setAnnotations((list) => list.filter((a) => a.id !== id));
    setSelectedId((current) => (current === id ? null : current));
  };

  const reorder = async (next: AnnotationDto[]) => {
    const before = annotations;
    setAnnotations(next);
    const saved = await run(() => api<AnnotationDto[]>(`${base}/reorder`, { method: "PUT", body: { annotationIds: next.map((a) => a.id) } }));
    setAnnotations(saved ?? before);
  };

  const uploadImage = async (id: string, file: File) => {
    const problem = checkImageFile(file);
    if (problem) return toast({ severity: "warn", summary: "Picture not added", detail: problem });
    await run(async () => {
      const link = await api<{ path: string; url: string }>(`/upload/item/${itemId}/annotation/${id}`, { query: { filename: file.name } });
      await xhrPut(link.url, file, () => undefined);
      const saved = await api<AnnotationDto>(`${base}/${id}`, { method: "PATCH", body: { image_path: link.path } });
      replace(saved);
    });
  };

  return {
    annotations,
    selectedId,
    setSelectedId,
    placing,
    setPlacing,
    busy,
    atQuota: quota !== -1 && annotations.length >= quota,
    quota,
    onViewer,
    place,
    placeAtCenter,
    update,
    saveView,
    remove,
    reorder,
    uploadImage,
  };
}

export type AnnotationEditorState = ReturnType<typeof useAnnotationEditor>;

const pickStyle: CSSProperties = { flex: 1, textAlign: "left", border: 0, background: "transparent", cursor: "pointer", padding: "4px 2px", font: "inherit" };

function AnnotationForm({ editor, annotation }: { editor: AnnotationEditorState; annotation: AnnotationDto }) {
  const [title, setTitle] = useState(annotation.title);
  const [body, setBody] = useState(annotation.body);
  const idBase = `annotation-${annotation.id}`;
  const moving = editor.placing?.annotationId === annotation.id;

  const confirmDelete = () =>
    confirmDialog({
      header: "Delete annotation",
      message: `Delete "${annotation.title}"?`,
      acceptLabel: "Delete",
      rejectLabel: "Cancel",
      acceptClassName: "p-button-danger",
      accept: () => void editor.remove(annotation.id),
    });

  return (
    <form
      className="annotation-form"
      style={{ display: "grid", gap: 8, borderTop: "1px solid var(--line, #e5e7eb)", paddingTop: 8 }}
      aria-label={`Edit ${annotation.title}`}
      onSubmit={(event) => {
        event.preventDefault();
        void editor.update(annotation.id, { title, body }, "The annotation was saved.");
      }}
    >
      <label htmlFor={`${idBase}-title`}>Title</label>
      <input id={`${idBase}-title`} className="p-inputtext" required maxLength={ANNOTATION_TITLE_MAX} value={title} onChange={(e) => setTitle(e.target.value)} />
      <label id={`${idBase}-body-label`} htmlFor={`${idBase}-body`}>
        Text
      </label>
      <RichTextEditor key={annotation.id} id={`${idBase}-body`} labelId={`${idBase}-body-label`} initialHtml={annotation.body} onChange={setBody} disabled={editor.busy} />
      <label htmlFor={`${idBase}-image`}>Picture (JPEG, PNG, WebP or GIF, up to 2 MB)</label>
      {annotation.image_url ? <img src={annotation.image_url} alt={`Picture of ${annotation.title}`} style={{ width: "100%", maxHeight: "10rem", objectFit: "cover", borderRadius: 6 }} /> : null}
      <input
        id={`${idBase}-image`}
        type="file"
        accept={IMAGE_ACCEPT}
        disabled={editor.busy}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = "";
          if (file) void editor.uploadImage(annotation.id, file);
        }}
      />
      {annotation.image_url ? (
        <Button type="button" text size="small" severity="danger" label="Remove picture" disabled={editor.busy} onClick={() => void editor.update(annotation.id, { image_path: null })} />
      ) : null}
      <p className="item-panel-note" style={{ margin: 0 }}>
        {annotation.camera ? "The tour shows the view saved with this annotation." : "No view saved: the tour looks at the hotspot from the front."}
      </p>
      <div style={{ display: "flex", gap: 6, flexWrap: "wrap" }}>
        <Button type="button" size="small" outlined icon="pi pi-camera" label="Save current view" disabled={editor.busy} onClick={() => editor.saveView(annotation.id)} />
        {annotation.camera ? (
          <Button type="button" size="small" text label="Forget view" disabled={editor.busy} onClick={() => void editor.update(annotation.id, { camera: null })} />
        ) : null}
        <Button
          type="button"
          size="small"
          outlined
          icon="pi pi-map-marker"
          label={moving ? "Click the model…" : "Move on the model"}
          disabled={editor.busy}
          onClick={() => editor.setPlacing(moving ? null : { annotationId: annotation.id })}
        />
      </div>
      <div style={{ display: "flex", gap: 6 }}>
        <Button type="submit" size="small" label="Save annotation" disabled={editor.busy || !title.trim()} />
        <Button type="button" size="small" severity="danger" text icon="pi pi-trash" label="Delete" disabled={editor.busy} onClick={confirmDelete} />
      </div>
    </form>
  );
}

export function AnnotationEditorPanel({ editor }: { editor: AnnotationEditorState }) {
  const { annotations } = editor;
  const selected = annotations.find((a) => a.id === editor.selectedId) ?? null;
  const placingNew = editor.placing !== null && editor.placing.annotationId === null;

  return (
    <section className="edit-panel" aria-labelledby="annotations-heading" data-testid="annotation-editor">
      <h2 id="annotations-heading">Annotations</h2>
      <p className="item-panel-note" style={{ margin: 0 }} data-testid="annotation-quota">
        {annotations.length} placed · your plan allows {editor.quota === -1 ? "unlimited annotations" : `${editor.quota} per model`}
      </p>
      {placingNew ? (
        <div style={{ display: "flex", gap: 6, flexWrap: "wrap" }}>
          <p className="item-panel-note" style={{ margin: 0, flexBasis: "100%" }} role="status">
            Click the model where the annotation goes.
          </p>
          <Button type="button" size="small" outlined label="Place at the centre of the view" onClick={() => void editor.placeAtCenter()} />
          <Button type="button" size="small" text label="Cancel" onClick={() => editor.setPlacing(null)} />
        </div>
      ) : (
        <Button type="button" icon="pi pi-plus" label="Add annotation" disabled={editor.busy || editor.atQuota} onClick={() => editor.setPlacing({ annotationId: null })} />
      )}
      {editor.atQuota ? <p className="item-panel-warn">{annotationQuotaMessage(editor.quota)}</p> : null}
      {annotations.length > 0 ? (
        <SortableList
          id="annotation-order"
          aria-label="Annotations in tour order"
          items={annotations}
          getLabel={(a) => a.title}
          onReorder={(next) => void editor.reorder(next)}
          disabled={editor.busy}
          renderItem={(annotation, handle) => {
            const selected = annotation.id === editor.selectedId;
            return (
              <>
                {handle}
                <button
                  type="button"
                  style={{ ...pickStyle, fontWeight: selected ? 700 : 400 }}
                  aria-pressed={selected}
                  data-testid="annotation-row"
                  onClick={() => editor.setSelectedId(selected ? null : annotation.id)}
                >
                  {annotations.indexOf(annotation) + 1}. {annotation.title}
                </button>
              </>
            );
          }}
        />
      ) : (
        <p className="item-panel-note">No annotations yet. Add one, then click the model to place it.</p>
      )}
      {selected ? <AnnotationForm key={selected.id} editor={editor} annotation={selected} /> : null}
    </section>
  );
}
