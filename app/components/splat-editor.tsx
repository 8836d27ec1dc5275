import { Button } from "primereact/button";
import { ProgressBar } from "primereact/progressbar";
import { useCallback, useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from "react";
import { useAuth } from "~/auth/auth-provider";
import { findOutsideBox } from "~/editor/crop-job";
import { EditHistory } from "~/editor/edit-history";
import { createEditorSession, type EditorVersion } from "~/editor/editor-session";
import { boundsOf, projectCentres, selectInBrush, selectInLasso, type CropBox, type ScreenPoint } from "~/editor/selection";
import { decodeSplatCloud, encodeSplatCloud, type SplatCloud } from "~/editor/splat-cloud";
import { formatCount, formatDateTime } from "~/lib/format";
import { formatBytes } from "~/lib/upload-rules";
import { createViewer, getCameraView, LoadCancelledError, setCameraView, type Viewer } from "~/viewer";
import { centresToClip, createCropBoxOutline } from "./splat-editor-scene";
import { cropHandles, dragCropFace, type CropHandle } from "~/editor/crop-handles";
import { useToast } from "./toast-provider";

/**
 * The splat clean-up editor of /item/{id}/edit (issue 18 item 5; docs/decisions/027). Lazy-loaded:
 * it brings three.js and the viewer. Loads the current version's splats as a .ply, shows them,
 * deletes what is outside a crop box (found in a Web Worker, with progress: crop-job.ts) or selected
 * with the brush or lasso (undo/redo), saves the kept splats as a new version and restores earlier
 * ones. Renders the two columns of .edit-body.
 */
type Tool = "orbit" | "brush" | "lasso";
const SELECTION_TINT: [number, number, number] = [1, 0.15, 0.35];
const AXES = ["x", "y", "z"] as const;

interface Loaded {
  cloud: SplatCloud;
  history: EditHistory;
  selected: Uint8Array;
  /** The crop box as loaded (the kept splats' bounds). */
  bounds: CropBox;
}

function sameHandles(a: CropHandle[], b: CropHandle[]): boolean {
  return a.length === b.length && a.every((h, i) => h.end === b[i].end && h.axis === b[i].axis && Math.abs(h.x - b[i].x) < 0.5 && Math.abs(h.y - b[i].y) < 0.5);
}

export default function SplatEditor({ itemId, onClose, onChanged }: { itemId: string; onClose: () => void; onChanged: () => void }) {
  const { api } = useAuth();
  const toast = useToast();
  const session = useRef(createEditorSession({ api, itemId })).current;
  const container = useRef<HTMLDivElement>(null);
  const viewer = useRef<Viewer | null>(null);
  const outline = useRef<ReturnType<typeof createCropBoxOutline> | null>(null);
  const loaded = useRef<Loaded | null>(null);
  const [status, setStatus] = useState<"loading" | "ready" | "error">("loading");
  const [error, setError] = useState<string | null>(null);
  const [, setRevision] = useState(0);
  const [tool, setTool] = useState<Tool>("orbit");
  const [brushRadius, setBrushRadius] = useState(30);
  const [box, setBox] = useState<CropBox | null>(null);
  const [versions, setVersions] = useState<EditorVersion[]>([]);
  const [busy, setBusy] = useState<null | "save" | "restore" | "crop">(null);
  /** The share of splats the running "Delete outside box" has looked at. */
  const [cropProgress, setCropProgress] = useState(0);
  const cropJob = useRef<AbortController | null>(null);
  const [stroke, setStroke] = useState<ScreenPoint[]>([]);
  const [pointer, setPointer] = useState<ScreenPoint | null>(null);
  const screen = useRef<Float32Array | null>(null);
  const [handles, setHandles] = useState<CropHandle[]>([]);
  const dragging = useRef<{ handle: CropHandle; from: ScreenPoint; start: CropBox } | null>(null);
  const painting = useRef(false);
  const rerender = () => setRevision((n) => n + 1);

  const fail = useCallback((e: unknown) => toast({ severity: "error", summary: "Error!", detail: (e as Error).message }), [toast]);

  /** Shows the kept splats (the selection tinted), keeping the camera where the user put it. */
  const redraw = useCallback(async (keepView = true) => {
    const state = loaded.current;
    const v = viewer.current;
    if (!state || !v) return;
    const view = keepView && v.stage.model() ? getCameraView(v.stage) : null;
    const anySelected = state.selected.some((flag, i) => flag === 1 && state.history.deleted[i] === 0);
    try {
      await v.load({ bytes: encodeSplatCloud(state.cloud, state.history.deleted, anySelected ? { flags: state.selected, color: SELECTION_TINT } : undefined), fileName: "edit.ply" });
      if (view) setCameraView(v.stage, view);
    } catch (e) {
      if (!(e instanceof LoadCancelledError)) fail(e);
    }
  }, [fail]);

  const open = useCallback(async () => {
    setStatus("loading");
    try {
      const [bytes, list] = await Promise.all([session.loadSplats(), session.listVersions()]);
      const cloud = decodeSplatCloud(bytes);
      const history = new EditHistory(cloud.count);
      const bounds = boundsOf(cloud.positions, history.deleted) ?? { min: [0, 0, 0], max: [0, 0, 0] };
      loaded.current = { cloud, history, selected: new Uint8Array(cloud.count), bounds };
      setVersions(list);
      setBox({ min: [...bounds.min], max: [...bounds.max] });
      await redraw(false);
      setStatus("ready");
      rerender();
    } catch (e) {
      setError((e as Error).message);
      setStatus("error");
    }
  }, [redraw, session]);

  useEffect(() => {
    if (!container.current) return;
    const v = createViewer({ container: container.current, autorotate: false });
    viewer.current = v;
    outline.current = createCropBoxOutline(v.stage);
    void open();
    return () => {
      cropJob.current?.abort();
      outline.current?.dispose();
      v.dispose();
      viewer.current = null;
    };
    // The editor opens once per mount; `open` is stable for an item.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const v = viewer.current;
    if (!v || status !== "ready") return;
    outline.current?.show(box);
    return v.on("ready", () => outline.current?.show(box));
  }, [box, status]);

  // The crop box's drag handles follow the camera: placed again after every frame drawn.
  useEffect(() => {
    const v = viewer.current;
    if (!v || status !== "ready" || !box || tool !== "orbit") {
      setHandles([]);
      return;
    }
    const place = () => {
      const matrix = centresToClip(v.stage);
      const next = matrix ? cropHandles(box, matrix, v.canvas.clientWidth, v.canvas.clientHeight) : [];
      // Every frame draws, but the handles only move with the camera: re-render only then.
      setHandles((current) => (sameHandles(current, next) ? current : next));
    };
    place();
    return v.on("render", place);
  }, [box, status, tool]);

  const startDrag = (handle: CropHandle) => (event: ReactPointerEvent<SVGCircleElement>) => {
    if (!box) return;
    event.stopPropagation();
    event.currentTarget.setPointerCapture(event.pointerId);
    dragging.current = { handle, from: { x: event.clientX, y: event.clientY }, start: { min: [...box.min], max: [...box.max] } };
  };
  const moveDrag = (event: ReactPointerEvent<SVGCircleElement>) => {
    const v = viewer.current;
    const drag = dragging.current;
    if (!v || !drag) return;
    const matrix = centresToClip(v.stage);
    if (!matrix) return;
    setBox(dragCropFace(drag.start, drag.handle, drag.from, { x: event.clientX, y: event.clientY }, matrix, v.canvas.clientWidth, v.canvas.clientHeight));
  };
  const endDrag = () => {
    dragging.current = null;
  };

  const state = loaded.current;
  const selectedCount = state ? state.selected.reduce((sum, flag, i) => sum + (flag && !state.history.deleted[i] ? 1 : 0), 0) : 0;

  const applyDelete = (indices: ArrayLike<number> & Iterable<number>, what: string) => {
    if (!state) return;
    if (indices.length >= state.history.kept) {
      // A splat with no splats is no model: the last ones stay (delete the item to remove it all).
      toast({ severity: "warn", summary: "Nothing deleted", detail: "That would delete every splat; keep at least one." });
      return;
    }
    if (!state.history.delete(indices)) {
      toast({ severity: "info", summary: "Nothing deleted", detail: what });
      return;
    }
    state.selected.fill(0);
    rerender();
    void redraw();
  };
  // The selection runs off the main thread on a copy of the state at the click; every other edit
  // waits (busy) so that the result is applied to the state it was found on.
  const deleteOutsideBox = async () => {
    if (!box || !state || busy !== null) return;
    const job = new AbortController();
    cropJob.current = job;
    setCropProgress(0);
    setBusy("crop");
    try {
      const outside = await findOutsideBox({ positions: state.cloud.positions, box, deleted: state.history.deleted, onProgress: setCropProgress, signal: job.signal });
      if (loaded.current === state) applyDelete(outside, "Every kept splat is inside the box.");
    } catch (e) {
      if (!job.signal.aborted) fail(e);
    } finally {
      cropJob.current = null;
      setBusy(null);
    }
  };
  const cancelCrop = () => cropJob.current?.abort();
  const deleteSelected = () => {
    if (!state) return;
    const picked: number[] = [];
    state.selected.forEach((flag, i) => flag && !state.history.deleted[i] && picked.push(i));
    applyDelete(picked, "Select splats with the brush or lasso first.");
  };
  const clearSelection = () => {
    if (!state) return;
    state.selected.fill(0);
    rerender();
    void redraw();
  };
  const undo = () => busy === null && state?.history.undo() && (rerender(), void redraw());
  const redo = () => busy === null && state?.history.redo() && (rerender(), void redraw());

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.isContentEditable)) return;
      const key = event.key.toLowerCase();
      if ((event.ctrlKey || event.metaKey) && key === "z") {
        event.preventDefault();
        if (event.shiftKey) redo();
        else undo();
      } else if ((event.ctrlKey || event.metaKey) && key === "y") {
        event.preventDefault();
        redo();
      } else if ((key === "delete" || key === "backspace") && selectedCount > 0 && busy === null) {
        event.preventDefault();
        deleteSelected();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });


  // Brush and lasso: centres are projected once per stroke, with the camera as it is when it starts.
  const localPoint = (event: ReactPointerEvent) => {
    const rect = (event.currentTarget as HTMLElement).getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  };
  const select = (indices: number[]) => {
    if (!state) return;
    for (const i of indices) state.selected[i] = 1;
  };
  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    const v = viewer.current;
    if (!state || !v || tool === "orbit") return;
    const matrix = centresToClip(v.stage);
    if (!matrix) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    screen.current = projectCentres(state.cloud.positions, matrix, v.canvas.clientWidth, v.canvas.clientHeight);
    painting.current = true;
    const point = localPoint(event);
    if (tool === "brush") select(selectInBrush(screen.current, point, brushRadius, state.history.deleted));
    setStroke([point]);
  };
  const onPointerMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    const point = localPoint(event);
    setPointer(point);
    if (!painting.current || !state || !screen.current) return;
    if (tool === "brush") select(selectInBrush(screen.current, point, brushRadius, state.history.deleted));
    setStroke((points) => [...points, point]);
  };
  const onPointerUp = () => {
    if (!painting.current || !state || !screen.current) return;
    painting.current = false;
    if (tool === "lasso") select(selectInLasso(screen.current, stroke, state.history.deleted));
    screen.current = null;
    setStroke([]);
    rerender();
    void redraw();
  };

  /** Runs a save or a restore: the toast on success, then the model page and the versions list refreshed. */
  const changeVersion = async (kind: "save" | "restore", change: () => Promise<{ summary: string; detail: string }>) => {
    setBusy(kind);
    try {
      toast({ severity: "success", ...(await change()) });
      onChanged();
      await open();
    } catch (e) {
      fail(e);
    } finally {
      setBusy(null);
    }
  };

  const save = async () => {
    if (!state) return;
    await changeVersion("save", async () => {
      const version = await session.saveVersion(encodeSplatCloud(state.cloud, state.history.deleted));
      return { summary: "Saved", detail: `Version ${version.number} is now the model's file.` };
    });
  };

  const restore = (version: EditorVersion) =>
    changeVersion("restore", async () => {
      await session.restoreVersion(version.id);
      return { summary: "Restored", detail: `Version ${version.number} (${version.label}) is the model's file again.` };
    });

  const setBoxValue = (end: "min" | "max", axis: number, value: number) => {
    if (!box || !Number.isFinite(value)) return;
    const next: CropBox = { min: [...box.min], max: [...box.max] };
    next[end][axis] = value;
    setBox(next);
  };
  const step = state ? Math.max(...AXES.map((_, axis) => state.bounds.max[axis] - state.bounds.min[axis])) / 200 || 0.01 : 0.01;

  return (
    <>
      <div className="edit-preview splat-editor-view" data-tool={tool}>
        <div ref={container} className="splat-editor-canvas" />
        <div
          className="splat-editor-overlay"
          data-testid="splat-editor-overlay"
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          onPointerLeave={() => setPointer(null)}
        >
          <svg width="100%" height="100%" aria-hidden="true">
            {tool === "lasso" && stroke.length > 1 ? <polygon points={stroke.map((p) => `${p.x},${p.y}`).join(" ")} className="splat-editor-lasso" /> : null}
            {tool === "brush" && pointer ? <circle cx={pointer.x} cy={pointer.y} r={brushRadius} className="splat-editor-brush" /> : null}
            {handles.map((handle) => (
              <circle
                key={`${handle.end}-${handle.axis}`}
                cx={handle.x}
                cy={handle.y}
                r={8}
                className="splat-editor-handle"
                data-handle={`${AXES[handle.axis]}-${handle.end}`}
                onPointerDown={startDrag(handle)}
                onPointerMove={moveDrag}
                onPointerUp={endDrag}
                onPointerCancel={endDrag}
              />
            ))}
          </svg>
        </div>
        {status === "loading" ? <p className="splat-editor-status" role="status">Loading the splats…</p> : null}
        {status === "error" ? <p className="splat-editor-status" role="alert">The splats could not be opened: {error}</p> : null}
      </div>
      <div className="edit-panels">
        <section className="edit-panel" aria-labelledby="cleanup-heading">
          <div className="splat-editor-head">
            <h2 id="cleanup-heading">Clean up</h2>
            <Button type="button" label="Close editor" text size="small" onClick={onClose} />
          </div>
          <p className="splat-editor-count" data-testid="splat-editor-count" aria-live="polite">
            {state ? `${formatCount(state.history.kept)} of ${formatCount(state.cloud.count)} splats kept` : "…"}
          </p>
          <div className="splat-editor-row" role="group" aria-label="History">
            <Button type="button" label="Undo" icon="pi pi-undo" size="small" outlined disabled={!state?.history.canUndo || busy !== null} onClick={undo} title="Undo (Ctrl+Z)" />
            <Button type="button" label="Redo" icon="pi pi-refresh" size="small" outlined disabled={!state?.history.canRedo || busy !== null} onClick={redo} title="Redo (Ctrl+Shift+Z)" />
          </div>
        </section>
        <section className="edit-panel" aria-labelledby="crop-heading">
          <h2 id="crop-heading">Crop box</h2>
          <p className="item-panel-note">Splats whose centres are outside the orange box are deleted. Drag the box’s handles on the view (in “Move view”: red x, green y, blue z), or type its sides.</p>
          {box
            ? AXES.map((name, axis) => (
                <div key={name} className="splat-editor-axis">
                  <span>{name}</span>
                  <label>
                    <span className="sr-only">{`${name} min`}</span>
                    <input type="number" step={step} aria-label={`${name} min`} value={Number(box.min[axis].toFixed(4))} onChange={(e) => setBoxValue("min", axis, e.target.valueAsNumber)} />
                  </label>
                  <label>
                    <span className="sr-only">{`${name} max`}</span>
                    <input type="number" step={step} aria-label={`${name} max`} value={Number(box.max[axis].toFixed(4))} onChange={(e) => setBoxValue("max", axis, e.target.valueAsNumber)} />
                  </label>
                </div>
              ))
            : null}
          <div className="splat-editor-row">
            <Button type="button" label="Delete outside box" size="small" severity="danger" disabled={!state || busy !== null} onClick={() => void deleteOutsideBox()} />
            <Button type="button" label="Reset box" size="small" text disabled={!state} onClick={() => state && setBox({ min: [...state.bounds.min], max: [...state.bounds.max] })} />
          </div>
          {busy === "crop" ? (
            <div className="splat-editor-progress" data-testid="splat-editor-crop-progress">
              <span id="crop-progress-label">Finding splats outside the box… {Math.round(cropProgress * 100)} %</span>
              <ProgressBar value={Math.round(cropProgress * 100)} showValue={false} aria-labelledby="crop-progress-label" />
              <Button type="button" label="Cancel" size="small" text onClick={cancelCrop} />
            </div>
          ) : null}
        </section>
        <section className="edit-panel" aria-labelledby="select-heading">
          <h2 id="select-heading">Select</h2>
          <div className="splat-editor-row" role="radiogroup" aria-label="Tool">
            {(["orbit", "brush", "lasso"] as const).map((t) => (
              <Button key={t} type="button" role="radio" aria-checked={tool === t} label={t === "orbit" ? "Move view" : t === "brush" ? "Brush" : "Lasso"} size="small" outlined={tool !== t} onClick={() => setTool(t)} />
            ))}
          </div>
          {tool === "brush" ? (
            <label className="splat-editor-radius">
              Brush radius: {brushRadius} px
              <input type="range" min={5} max={150} value={brushRadius} onChange={(e) => setBrushRadius(e.target.valueAsNumber)} />
            </label>
          ) : null}
          <p className="item-panel-note" data-testid="splat-editor-selected">{formatCount(selectedCount)} selected</p>
          <div className="splat-editor-row">
            <Button type="button" label="Delete selected" size="small" severity="danger" disabled={selectedCount === 0 || busy !== null} onClick={deleteSelected} />
            <Button type="button" label="Clear selection" size="small" text disabled={selectedCount === 0} onClick={clearSelection} />
          </div>
        </section>
        <section className="edit-panel" aria-labelledby="versions-heading">
          <h2 id="versions-heading">Versions</h2>
          <Button type="button" label="Save as new version" icon="pi pi-save" loading={busy === "save"} disabled={!state || !state.history.canUndo || busy !== null} onClick={() => void save()} />
          <ol className="splat-editor-versions" aria-label="Versions">
            {versions.map((version) => (
              <li key={version.id} data-testid="splat-editor-version">
                <span>
                  <strong>Version {version.number}</strong> · {version.label}
                  <br />
                  <small>
                    {version.splat_count !== null ? `${formatCount(version.splat_count)} splats · ` : ""}
                    {version.size !== null ? `${formatBytes(version.size)} · ` : ""}
                    {formatDateTime(version.created_at)}
                  </small>
                </span>
                {version.is_current ? (
                  <span className="splat-editor-current">Current</span>
                ) : (
                  <Button type="button" label="Restore" size="small" outlined aria-label={`Restore version ${version.number}`} disabled={busy !== null} onClick={() => void restore(version)} />
                )}
              </li>
            ))}
          </ol>
        </section>
      </div>
    </>
  );
}
