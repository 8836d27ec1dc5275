/**
 * <ModelViewer>: downloads a model (with progress, auth and XOR decoding) and shows it in the
 * three.js viewer; or a scene of several models, each with its own transform (the Builder's
 * scenes). The viewer bundle (three.js, and Spark for splats) is imported lazily inside an effect,
 * so it is code-split and server rendering never touches WebGL.
 */
import { useEffect, useRef, useState, type CSSProperties } from "react";
import type { CameraView, Viewer, ViewerReadyEvent } from "../viewer";
import { backgroundCss, type ViewerBackground } from "../viewer/background";
import { downloadModel, startModelDownload, takeEarlyModelDownload } from "../viewer/download";
import { EARLY_SPLATS_DRAWN, EARLY_SPLATS_RELEASE, earlySplatsShown } from "../viewer/early-splats/events";
import { applyPartTransform, normalizePartTransform } from "../viewer/part-transform";
import { isSceneSource, partFailureNotice, sceneFilesKey, transformsKey, type PartFailure, type SceneSource } from "./scene-source";
import { DEFAULT_BACKGROUND, INITIAL_STATE, isCancellation, loadingProgress, reasonOf, type ViewState } from "./model-viewer-state";
import { styles } from "./model-viewer-styles";
import { ViewerToolbar } from "./viewer-toolbar";
import type { ArFiles } from "~/viewer/ar";

export type { ScenePartSource, SceneSource } from "./scene-source";

export interface ModelSource {
  url: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string | null;
  /** XOR key the file was obfuscated with (SPEC §7). */
  xorKey?: Uint8Array | null;
  /** Original file name; helps detect formats without magic bytes (.splat, .spz, .sog). */
  fileName?: string;
  /** The same splat's coarse level (the item's model_coarse_url): downloaded beside it and shown first. */
  coarseUrl?: string | null;
}

export interface ModelViewerProps {
  /**
   * One model, or a scene: its parts download (at most 3 at once) and show together. A scene is
   * reloaded when its parts' files change (ids, urls, tokens, keys, names of files); a change of
   * transforms only moves the parts on show.
   */
  source: ModelSource | SceneSource;
  /** Behind the model: a CSS hex colour, a gradient or an environment. Applied when a source starts loading. */
  background?: ViewerBackground;
  className?: string;
  /** Slowly orbit the model until the user interacts. */
  autorotate?: boolean;
  /** Its pace, a multiple of the normal one (the item's viewer settings). */
  autorotateSpeed?: number;
  /** Vertical field of view of the automatic framing (the item's viewer settings); a saved view brings its own. */
  fov?: number;
  /** Opening camera view (the item's viewer settings); applied when a source starts loading. */
  initialCamera?: CameraView | null;
  onReady?: (info: ViewerReadyEvent) => void;
  onError?: (error: Error) => void;
  /**
   * Called with the viewer once its model is shown, for add-ons (hotspots, measuring); the
   * returned function runs before that viewer is disposed.
   */
  onViewer?: (viewer: Viewer) => (() => void) | void;
  /**
   * A glTF model placed by "View in your space" while a splat is on show (a scan's light textured mesh),
   * downloaded on the first use; read when the source starts loading.
   */
  arModel?: ModelSource | null;
  /** The server's AR files of the model (issue 35 item 1): what AR Quick Look and Scene Viewer open; read with arModel. */
  arFiles?: ArFiles | null;
}


export function ModelViewer({
  source,
  background,
  className,
  autorotate,
  autorotateSpeed,
  fov,
  initialCamera,
  onReady,
  onError,
  onViewer,
  arModel,
  arFiles,
}: ModelViewerProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<ViewState>(INITIAL_STATE);
  const [shownViewer, setShownViewer] = useState<Viewer | null>(null);
  const [partFailures, setPartFailures] = useState<PartFailure[]>([]);
  const [noticeDismissed, setNoticeDismissed] = useState(false);
  // The early splats (decision 038): a canvas the page's early module may draw the coarse level on before the
  // viewer exists; on show until the viewer has drawn its own first frame.
  const earlyRef = useRef<HTMLCanvasElement>(null);
  const [earlyDrawn, setEarlyDrawn] = useState(false);
  const [viewerDrawn, setViewerDrawn] = useState(false);
  const sourceRef = useRef(source);
  const onReadyRef = useRef(onReady);
  const onErrorRef = useRef(onError);
  const onViewerRef = useRef(onViewer);
  const arModelRef = useRef(arModel);
  const arFilesRef = useRef(arFiles);
  const optionsRef = useRef<{ background: ViewerBackground; autorotate: boolean; autorotateSpeed?: number; fov?: number; initialCamera?: CameraView | null }>({ background: background ?? DEFAULT_BACKGROUND, autorotate: !!autorotate, autorotateSpeed, fov, initialCamera });
  useEffect(() => {
    onReadyRef.current = onReady;
    onErrorRef.current = onError;
    onViewerRef.current = onViewer;
    arModelRef.current = arModel;
    arFilesRef.current = arFiles;
    optionsRef.current = { background: background ?? DEFAULT_BACKGROUND, autorotate: !!autorotate, autorotateSpeed, fov, initialCamera };
    sourceRef.current = source;
  });

  const scene = isSceneSource(source) ? source : null;
  const single = scene ? null : (source as ModelSource);
  const url = single?.url ?? "";
  const token = single?.token;
  const fileName = single?.fileName;
  const coarseUrl = single?.coarseUrl ?? "";
  // A new Uint8Array each render must not restart the download: depend on the key's content.
  const xorKeyId = single?.xorKey && single.xorKey.length > 0 ? Array.from(single.xorKey).join(",") : "";
  // Likewise a scene: a new array of the same parts is the same scene.
  const sceneKey = scene ? sceneFilesKey(scene) : "";
  const sceneTransforms = scene ? transformsKey(scene) : "";
  const partCount = scene?.parts.length ?? 0;

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const abort = new AbortController();
    let cancelled = false;
    let viewer: Viewer | null = null;
    let detachAddons: (() => void) | void = undefined;
    const xorKey = xorKeyId ? Uint8Array.from(xorKeyId.split(","), Number) : null;
    const { background: bg, autorotate: rotate, autorotateSpeed: rotateSpeed, fov: fieldOfView, initialCamera: camera } = optionsRef.current;
    const current = sourceRef.current;
    const sceneParts = sceneKey && isSceneSource(current) ? current.parts : null;
    setState(INITIAL_STATE);
    setViewerDrawn(false);
    setPartFailures([]);
    setNoticeDismissed(false);

    const fail = (error: unknown) => {
      if (cancelled || isCancellation(error)) return;
      const reason = reasonOf(error);
      // A scene's reasons read on their own ("This scene has no models yet", "None of the 3 models …").
      setState({ status: "error", message: sceneParts ? reason : `Failed to download model: ${reason}` });
      onErrorRef.current?.(error instanceof Error ? error : new Error(reason));
    };

    // Progress updates are coalesced to whole percents (or 256 KiB steps when the size is unknown).
    let lastStep = -1;
    const showProgress = (loaded: number, total: number | null) => {
      if (cancelled) return;
      const step = total ? Math.floor((loaded / total) * 100) : Math.floor(loaded / 262_144);
      if (step === lastStep) return;
      lastStep = step;
      setState((previous) => ({ status: "loading", phase: "download", loaded, total, preview: previous.status === "loading" && previous.preview }));
    };
    const showPreparing = (loaded: number) => {
      if (cancelled) return;
      setState((previous) => (previous.status === "loading" ? { ...previous, phase: "prepare", loaded } : previous));
    };
    const viewerModule = import("../viewer");
    viewerModule.catch(() => undefined); // reported through the await below

    let show: (target: Viewer) => Promise<void>;
    if (sceneParts) {
      // One bar over all parts: the viewer sums their bytes; the downloads start as it asks (3 at once).
      show = (target) => {
        target.on("progress", ({ loaded, total }) => {
          if (total !== null && loaded >= total) showPreparing(loaded);
          else showProgress(loaded, total);
        });
        target.on("part-error", ({ id, error }) => {
          if (cancelled || isCancellation(error)) return;
          const name = sceneParts.find((part) => part.id === id)?.name;
          setPartFailures((previous) => [...previous, { id, ...(name ? { name } : {}), message: reasonOf(error) }]);
        });
        return target.loadScene({
          parts: sceneParts.map((part) => ({
            id: part.id,
            transform: part.transform,
            ...(part.name !== undefined ? { name: part.name } : {}),
            ...(part.fileName !== undefined ? { fileName: part.fileName } : {}),
            download: () => startModelDownload({ url: part.url, token: part.token, xorKey: part.xorKey, signal: abort.signal }),
          })),
        });
      };
    } else {
      // The download starts at once, before the viewer bundle has arrived; the viewer then reads the
      // bytes as they come (format detection, first splats of a plain .ply before the end).
      // A public model's download may have begun before hydration (startViewerEarly, decision 035): adopted
      // when it is this URL with this key.
      const earlyDownload = (from: string) => {
        const early = takeEarlyModelDownload(from, { token, xorKey });
        if (early) abort.signal.addEventListener("abort", early.cancel);
        return early?.download ?? null;
      };
      const early = earlyDownload(url);
      const download = early ?? startModelDownload({ url, token, xorKey, signal: abort.signal, onProgress: showProgress });
      if (early) {
        download.onData(() => showProgress(download.loaded, download.total));
        showProgress(download.loaded, download.total);
      }
      download.done.then(
        (bytes) => showPreparing(bytes.byteLength),
        () => undefined, // reported by viewer.load()
      );
      // The coarse level downloads beside the model (it is a tenth of its size) and is shown first, by the
      // viewer unless the early splats show it already (decision 038).
      const coarse =
        coarseUrl && !earlySplatsShown() ? (earlyDownload(coarseUrl) ?? startModelDownload({ url: coarseUrl, token, xorKey, signal: abort.signal })) : undefined;
      coarse?.done.catch(() => undefined); // the whole model is what counts
      show = (target) => target.load({ download, fileName, ...(coarse && !earlySplatsShown() ? { coarse } : {}) });
    }

    (async () => {
      const { createViewer } = await viewerModule;
      if (cancelled) return;
      viewer = createViewer({
        container: host,
        background: bg,
        autorotate: rotate,
        ...(rotateSpeed ? { autorotateSpeed: rotateSpeed } : {}),
        ...(fieldOfView ? { fov: fieldOfView } : {}),
        initialCamera: camera ?? undefined,
        fullscreenElement: rootRef.current ?? host,
      });
      const ar = arModelRef.current;
      if (ar) viewer.setArModel(() => downloadModel({ url: ar.url, token: ar.token, xorKey: ar.xorKey, signal: abort.signal }));
      viewer.setArFiles(arFilesRef.current ?? null);
      viewer.on("ready", (info) => onReadyRef.current?.(info));
      viewer.on("error", fail); // also reports failures after the model was shown, e.g. a lost WebGL context
      viewer.on("preview", () => {
        if (cancelled) return;
        setState((previous) => (previous.status === "loading" ? { ...previous, preview: true } : previous));
        setViewerDrawn(true);
      });
      await show(viewer);
    })().then(
      () => {
        if (cancelled || !viewer) return;
        setState({ status: "ready" });
        setViewerDrawn(true);
        setShownViewer(viewer);
        detachAddons = onViewerRef.current?.(viewer);
      },
      fail, // download failures (HTTP status, empty body) come through load() too
    );

    return () => {
      cancelled = true;
      abort.abort();
      detachAddons?.();
      viewer?.dispose();
      viewer = null;
      setShownViewer(null);
    };
  }, [url, coarseUrl, token, fileName, xorKeyId, sceneKey]);

  // The early splats' canvas: docks the progress bar once drawn (maybe before hydration); gives its WebGL
  // context back when the viewer's own frame replaces it.
  const earlyCanvas = !!coarseUrl && !viewerDrawn;
  useEffect(() => {
    const canvas = earlyRef.current;
    if (!canvas) return;
    const drawn = () => setEarlyDrawn(true);
    if (canvas.dataset.drawn) drawn();
    canvas.addEventListener(EARLY_SPLATS_DRAWN, drawn);
    return () => {
      canvas.removeEventListener(EARLY_SPLATS_DRAWN, drawn);
      canvas.dispatchEvent(new Event(EARLY_SPLATS_RELEASE));
    };
  }, [earlyCanvas]);

  // New transforms for the scene on show move its parts (no reload).
  useEffect(() => {
    const current = sourceRef.current;
    if (!shownViewer || !sceneTransforms || !isSceneSource(current)) return;
    const groups = shownViewer.stage.parts();
    for (const part of current.parts) {
      const group = groups.get(part.id);
      if (!group) continue;
      try {
        applyPartTransform(group, normalizePartTransform(part.transform));
      } catch {
        // An invalid transform leaves the part where it is (loadScene reported it when loading).
      }
    }
    shownViewer.stage.requestRender();
  }, [shownViewer, sceneTransforms]);

  const rootStyle: CSSProperties = { ...styles.root, background: backgroundCss(background ?? DEFAULT_BACKGROUND) };
  let overlay = null;
  if (state.status === "loading") {
    // Without a Content-Length the bar is indeterminate (no aria-valuenow) once bytes arrive.
    const { percent, label } = loadingProgress(state, scene ? "models" : "model");
    const docked = state.preview || (earlyCanvas && earlyDrawn);
    overlay = (
      <div className={docked ? "mv-overlay mv-overlay-docked" : "mv-overlay"} style={docked ? { ...styles.overlay, ...styles.docked } : styles.overlay}>
        <div
          className="mv-progress"
          role="progressbar"
          aria-label="Model download progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent ?? undefined}
          aria-valuetext={label}
          style={styles.track}
        >
          <div className="mv-progress-fill" style={{ ...styles.fill, width: `${percent ?? 100}%`, opacity: percent === null ? 0.5 : 1 }} />
        </div>
        <div className="mv-progress-label">{label}</div>
      </div>
    );
  } else if (state.status === "error") {
    overlay = (
      <div className="mv-overlay" style={styles.overlay}>
        <div className="mv-error" role="alert" style={styles.error}>
          {state.message}
        </div>
      </div>
    );
  }

  const notice = state.status !== "error" && !noticeDismissed ? partFailureNotice(partFailures, partCount) : null;

  return (
    <div
      ref={rootRef}
      className={className ? `mv-root ${className}` : "mv-root"}
      style={rootStyle}
      data-testid="model-viewer"
      data-state={state.status}
      data-preview={state.status === "loading" && state.preview ? "true" : undefined}
      aria-busy={state.status === "loading"}
    >
      <div
        ref={hostRef}
        className="mv-canvas"
        style={styles.canvasHost}
        role="img"
        aria-label={scene ? `3D scene: ${partCount} ${partCount === 1 ? "model" : "models"}` : fileName ? `3D model: ${fileName}` : "3D model"}
      />
      {earlyCanvas ? (
        <canvas ref={earlyRef} data-early-splats="" data-camera={JSON.stringify(initialCamera ?? null)} aria-hidden="true" style={styles.earlyCanvas} />
      ) : null}
      {overlay}
      {notice ? (
        <div className="mv-notice" role="status" data-testid="model-viewer-part-errors" style={styles.notice}>
          <span>{notice}</span>
          <button type="button" className="mv-notice-close" aria-label="Dismiss" style={styles.noticeClose} onClick={() => setNoticeDismissed(true)}>
            ×
          </button>
        </div>
      ) : null}
      {shownViewer && state.status === "ready" ? <ViewerToolbar viewer={shownViewer} frame={rootRef} /> : null}
    </div>
  );
}

export default ModelViewer;
