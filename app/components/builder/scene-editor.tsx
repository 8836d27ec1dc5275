/**
 * The Builder's editor (/builder/{id}): the scene in the viewer with a move / turn / scale gizmo on the
 * selected model, the list of its models, number fields, and saving (the scene, and a thumbnail from the
 * view when it has none). Models join through /builder/import; `arrange` lays out the ones just added.
 */
import { Link, useBeforeUnload, useBlocker, useRevalidator } from "@remix-run/react";
import { Button } from "primereact/button";
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { useAuth } from "~/auth/auth-provider";
import { ItemViewer } from "~/components/item-viewer";
import { useToast } from "~/components/toast-provider";
import type { ScenePartDto } from "~/domain/scenes.server";
import { MAX_SCENE_PARTS } from "~/domain/scene-schemas";
import { uploadItemThumbnail } from "~/components/item-thumbnail";
import type { Viewer } from "~/viewer";
import { getCameraView } from "~/viewer/camera-view";
import { captureFrame } from "~/viewer/capture-frame";
import type { SceneGizmo } from "~/viewer/scene-gizmo";
import { PartTransformFields } from "./part-transform-fields";
import { sceneSaveBody, type EditorPart, type EditorTransform } from "./scene-editor-state";
import { saveStateText } from "./scene-status";

type GizmoMode = "translate" | "rotate" | "scale";
const MODES: Array<{ mode: GizmoMode; label: string; icon: string; key: string }> = [
  { mode: "translate", label: "Move", icon: "pi pi-arrows-alt", key: "1" },
  { mode: "rotate", label: "Turn", icon: "pi pi-refresh", key: "2" },
  { mode: "scale", label: "Scale", icon: "pi pi-expand", key: "3" },
];

export interface SceneEditorProps {
  scene: {
    id: string;
    name: string;
    /** "draft" until the first save (decision 046). */
    status: string;
    visibility: string;
    thumbnail_url: string | null;
    model_url: string | null;
    file_format: string | null;
    model_type: string;
    settings: Parameters<typeof ItemViewer>[0]["item"]["settings"];
    scene_parts: ScenePartDto[] | null;
  };
  /** Part ids to lay out side by side once shown ("all" for every part), from /builder/import. */
  arrange: string[] | "all" | null;
  onArranged: () => void;
}

function partsFrom(dtos: ScenePartDto[]): EditorPart[] {
  return dtos.map((part) => ({ id: part.id, item_id: part.item_id, name: part.name, model_type: part.model_type, transform: part.transform }));
}

/** A picture of the scene without the gizmo (the selection stays as it is, whatever happens meanwhile). */
function captureWithoutGizmo(viewer: Viewer, gizmo: SceneGizmo | null): Promise<Blob> {
  return gizmo ? gizmo.withoutGizmo(() => captureFrame(viewer)) : captureFrame(viewer);
}

export function SceneEditor({ scene, arrange, onArranged }: SceneEditorProps) {
  const { api } = useAuth();
  const toast = useToast();
  const revalidator = useRevalidator();
  const [name, setName] = useState(scene.name);
  const [parts, setParts] = useState<EditorPart[]>(() => partsFrom(scene.scene_parts ?? []));
  const [selected, setSelected] = useState<string | null>(null);
  const [mode, setMode] = useState<GizmoMode>("translate");
  const [snap, setSnap] = useState(false);
  const [dirty, setDirty] = useState(false);
  // A draft (never saved) can be saved as it is: the first save makes it a scene like any model (decision 046).
  const [isDraft, setIsDraft] = useState(scene.status === "draft");
  const [saving, setSaving] = useState(false);
  const [viewer, setViewer] = useState<Viewer | null>(null);
  const gizmoRef = useRef<SceneGizmo | null>(null);
  const arrangeRef = useRef(arrange);

  // The viewer loads the scene as it was opened; edits move the shown parts instead of reloading them.
  const [viewerItem] = useState(() => ({ ...scene, model_url: null }));

  const setTransform = useCallback((id: string, transform: EditorTransform) => {
    setParts((current) => current.map((part) => (part.id === id ? { ...part, transform } : part)));
  }, []);

  const onViewer = useCallback(
    (shown: Viewer) => {
      let cancelled = false;
      void import("~/viewer/addons").then(({ createSceneGizmo }) => {
        if (cancelled) return;
        gizmoRef.current = createSceneGizmo({
          viewer: shown,
          onSelect: (id) => setSelected(id),
          onChange: (id, transform) => setTransform(id, transform),
          onCommit: (id, transform) => {
            setTransform(id, transform);
            setDirty(true);
          },
        });
        setViewer(shown);
      });
      return () => {
        cancelled = true;
        gizmoRef.current?.dispose();
        gizmoRef.current = null;
        setViewer(null);
      };
    },
    [setTransform],
  );

  // Models just added (from /builder/import) go side by side, to the right of the ones already placed.
  useEffect(() => {
    const wanted = arrangeRef.current;
    if (!viewer || !wanted) return;
    arrangeRef.current = null;
    void import("./part-bounds").then(({ arrangeParts }) => {
      const moved = arrangeParts(viewer, wanted === "all" ? null : wanted);
      for (const [id, transform] of moved) {
        gizmoRef.current?.setTransform(id, transform);
        setTransform(id, transform);
      }
      if (moved.size > 0) {
        setDirty(true);
        viewer.resetView();
      }
      onArranged();
    });
  }, [viewer, setTransform, onArranged]);

  useEffect(() => gizmoRef.current?.setMode(mode), [mode, viewer]);
  useEffect(() => gizmoRef.current?.setSnap(snap), [snap, viewer]);

  const selectedPart = parts.find((part) => part.id === selected) ?? null;

  const editSelected = (transform: EditorTransform) => {
    if (!selectedPart) return;
    gizmoRef.current?.setTransform(selectedPart.id, transform);
    setTransform(selectedPart.id, transform);
    setDirty(true);
  };

  const removePart = (id: string) => {
    if (selected === id) gizmoRef.current?.select(null);
    viewer?.removePart(id);
    setParts((current) => current.filter((part) => part.id !== id));
    setDirty(true);
  };

  const select = (id: string | null) => {
    gizmoRef.current?.select(id);
    setSelected(id);
  };

  const save = async () => {
    if (saving) return;
    if (!name.trim()) {
      toast({ severity: "warn", summary: "Not saved", detail: "Give the scene a name." });
      return;
    }
    setSaving(true);
    try {
      await api(`/item/${scene.id}/scene`, { method: "PUT", body: sceneSaveBody(name, parts) });
      setDirty(false);
      setIsDraft(false);
      toast({ severity: "success", summary: "Saved", detail: "The scene was saved." });
      // A scene without a picture gets the current view (the owner can replace it in Edit).
      if (!scene.thumbnail_url && viewer && parts.length > 0) await setThumbnailFromView(false);
      revalidator.revalidate();
    } catch (error) {
      toast({ severity: "error", summary: "Error!", detail: (error as Error).message });
    } finally {
      setSaving(false);
    }
  };

  const setThumbnailFromView = async (announce = true) => {
    if (!viewer) return;
    try {
      await uploadItemThumbnail(api, scene.id, await captureWithoutGizmo(viewer, gizmoRef.current));
      if (announce) toast({ severity: "success", summary: "Saved", detail: "The thumbnail now shows this view." });
      revalidator.revalidate();
    } catch (error) {
      toast({ severity: "warn", summary: "Thumbnail not updated", detail: (error as Error).message });
    }
  };

  const setOpeningView = async () => {
    if (!viewer) return;
    try {
      await api(`/item/${scene.id}/settings`, { method: "PATCH", body: { camera: getCameraView(viewer.stage) } });
      toast({ severity: "success", summary: "Saved", detail: "The scene now opens with this view." });
    } catch (error) {
      toast({ severity: "error", summary: "Error!", detail: (error as Error).message });
    }
  };

  // Leaving with unsaved changes asks first (links inside the app, and closing or reloading the tab).
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  useBeforeUnload(
    useCallback(
      (event: BeforeUnloadEvent) => {
        if (!dirty) return;
        event.preventDefault();
        event.returnValue = "";
      },
      [dirty],
    ),
  );

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "s") {
      event.preventDefault();
      void save();
      return;
    }
    // The other keys are the fields' own while one is being typed in.
    if ((event.target as HTMLElement).closest("input, textarea, select")) return;
    const shortcut = MODES.find((entry) => entry.key === event.key);
    if (shortcut) {
      setMode(shortcut.mode);
    } else if ((event.key === "Delete" || event.key === "Backspace") && selected) {
      event.preventDefault();
      removePart(selected);
    } else if (event.key === "Escape" && selected) {
      select(null);
    }
  };

  const viewerKey = useMemo(() => scene.id, [scene.id]);
  return (
    <div className="builder-editor" onKeyDown={onKeyDown}>
      <header className="builder-editor-bar">
        <Link to="/builder" className="builder-back" aria-label="My scenes">
          <i className="pi pi-arrow-left" aria-hidden="true" />
        </Link>
        <label htmlFor="scene-name" className="sr-only">
          Scene name
        </label>
        <input
          id="scene-name"
          className="p-inputtext p-inputtext-sm builder-name"
          value={name}
          maxLength={200}
          onChange={(event) => {
            setName(event.target.value);
            setDirty(true);
          }}
        />
        <span className="builder-save-state" data-testid="save-state" aria-live="polite">
          {saveStateText({ isDraft, dirty })}
        </span>
        <Button label="Save" icon="pi pi-save" size="small" onClick={save} loading={saving} disabled={!dirty && !isDraft} />
        {isDraft ? null : (
          <Link to={`/item/${scene.id}`} className="p-button p-button-sm p-button-outlined">
            View
          </Link>
        )}
      </header>
      {blocker.state === "blocked" ? (
        <div className="builder-leave" role="alertdialog" aria-labelledby="leave-title">
          <p id="leave-title">This scene has unsaved changes. Leave without saving?</p>
          <Button label="Stay" size="small" onClick={() => blocker.reset()} />
          <Button label="Leave" size="small" severity="danger" outlined onClick={() => blocker.proceed()} />
        </div>
      ) : null}
      <div className="builder-editor-body">
        <aside className="builder-parts" aria-labelledby="parts-heading">
          <h2 id="parts-heading">
            Models <span className="builder-count">{parts.length}/{MAX_SCENE_PARTS}</span>
          </h2>
          {parts.length === 0 ? <p className="builder-empty">This scene is empty.</p> : null}
          <ul data-testid="scene-parts">
            {parts.map((part) => (
              <li key={part.id} className={part.id === selected ? "is-selected" : undefined}>
                <button type="button" className="builder-part" aria-pressed={part.id === selected} onClick={() => select(part.id === selected ? null : part.id)}>
                  <i className={part.model_type === "glb" ? "pi pi-box" : "pi pi-sparkles"} aria-hidden="true" /> {part.name}
                </button>
                <Button icon="pi pi-trash" text rounded size="small" severity="danger" aria-label={`Remove ${part.name} from the scene`} onClick={() => removePart(part.id)} />
              </li>
            ))}
          </ul>
          {parts.length < MAX_SCENE_PARTS ? (
            <Link
              to={`/builder/import?scene=${scene.id}`}
              className="p-button p-button-sm p-button-outlined"
              onClick={(event) => {
                if (dirty) {
                  event.preventDefault();
                  toast({ severity: "warn", summary: "Save first", detail: "Save the scene before adding models." });
                }
              }}
            >
              <i className="pi pi-plus" aria-hidden="true" />
              &nbsp;Add models
            </Link>
          ) : null}
        </aside>
        <div className="builder-stage">
          <div className="builder-tools" role="toolbar" aria-label="Gizmo">
            {MODES.map((entry) => (
              <Button
                key={entry.mode}
                size="small"
                icon={entry.icon}
                label={entry.label}
                outlined={mode !== entry.mode}
                aria-pressed={mode === entry.mode}
                title={`${entry.label} (${entry.key})`}
                onClick={() => setMode(entry.mode)}
              />
            ))}
            <label className="builder-snap">
              <input type="checkbox" checked={snap} onChange={(event) => setSnap(event.target.checked)} /> Snap
            </label>
          </div>
          <div className="builder-canvas" data-testid="builder-canvas">
            {parts.length > 0 || (scene.scene_parts?.length ?? 0) > 0 ? (
              <ItemViewer key={viewerKey} item={viewerItem} onViewer={onViewer} />
            ) : (
              <div className="builder-canvas-empty">
                <p>Add models to start building.</p>
                <Link to={`/builder/import?scene=${scene.id}`} className="p-button">
                  Add models
                </Link>
              </div>
            )}
          </div>
          <p className="builder-hint">
            Click a model to select it, drag the arrows, rings or boxes to move, turn or scale it. Keys: 1 move, 2 turn, 3 scale, Delete removes, Esc
            deselects, Ctrl+S saves. Everyone who can open this scene sees its models, including your private ones.
          </p>
        </div>
        <aside className="builder-inspector" aria-labelledby="inspector-heading">
          <h2 id="inspector-heading">{selectedPart ? selectedPart.name : "Scene"}</h2>
          {selectedPart ? (
            <PartTransformFields transform={selectedPart.transform} onChange={editSelected} />
          ) : (
            <p className="builder-empty">Select a model to place it precisely.</p>
          )}
          <div className="builder-view-actions">
            <Button label="Use this view as the thumbnail" size="small" outlined disabled={!viewer} onClick={() => void setThumbnailFromView()} />
            <Button label="Open the scene with this view" size="small" outlined disabled={!viewer} onClick={setOpeningView} />
            <Button label="Reset view" size="small" text disabled={!viewer} onClick={() => viewer?.resetView()} />
          </div>
        </aside>
      </div>
    </div>
  );
}
