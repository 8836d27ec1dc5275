/**
 * The framework-free three.js viewer: one canvas, one scene, one model (or one scene of several
 * models: loadScene) at a time.
 * Lifecycle: createViewer() → load() / loadScene() (any number of times) → dispose().
 */
import {
  Color,
  DirectionalLight,
  NeutralToneMapping,
  NoToneMapping,
  PMREMGenerator,
  PerspectiveCamera,
  Scene,
  Vector3,
  WebGLRenderer,
  type Object3D,
  type Texture,
} from "three";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";
import { RoomEnvironment } from "three/addons/environments/RoomEnvironment.js";
import { detectFileFormat, type ModelFormat } from "../formats/model-format";
import type { ArSupport } from "./ar";
import { flyTo } from "./camera-flight";
import { detectDeviceProfile } from "./device-profile";
import { registerViewer } from "./diagnostics";
import { createFlyNavigation } from "./fly-navigation";
import { onDoubleActivate } from "./focus-gesture";
import { toggleFullscreen as toggleElementFullscreen } from "./fullscreen";
import { applyOrbitStep, keyAction } from "./keyboard-navigation";
import { pickSurface } from "./picking";
import { createConcurrencyLimiter, type ConcurrencyLimiter } from "./concurrency-limit";
import type { ModelDownload } from "./download";
import { createSceneModel, isSceneModel } from "./scene-model";
import { sumProgress, type PartProgress } from "./scene-progress";
import { allPartsFailedError, EMPTY_SCENE, looksLikeMeshFile, validateScenePart } from "./scene-request";
import { receiveDownload, type PreviewBytes } from "./streamed-load";
import { takeEarlyDecode, type EarlyDecoded } from "./early-decode";
import { Emitter } from "./emitter";
import { markLoad } from "./load-marks";
import { EMPTY_OR_CORRUPTED, LoadCancelledError, toError } from "./errors";
import { DEFAULT_BACKGROUND } from "./background";
import { VIEWER_FOV, viewDirectionFor } from "./camera-fit";
import { applyCameraView, getCameraView } from "./camera-view";
import { frameCamera } from "./frame-camera";
import { waitForGpu } from "./gpu-fence";
import { DEFAULT_DECODER_PATH } from "./decoder-path";
import type { GltfLoaderHandle } from "./load-gltf";
import { createSparkRenderer, DEFAULT_SPLAT_TIMEOUT_MS, isSplatFormat, loadSpark, loadSplat, splatsDrawnOf, whenSparkIdle, type SparkHandle } from "./load-splat";
import type { LoadedModel } from "./loaded-model";
import { startRenderLoop, type RenderLoop } from "./render-loop";
import type {
  LoadRequest,
  NavigationMode,
  SceneLoadRequest,
  ScenePartRequest,
  StreamedLoadRequest,
  Viewer,
  ViewerEvents,
  ViewerOptions,
  ViewerPreviewEvent,
  ViewerStats,
} from "./types";

export { DEFAULT_BACKGROUND };
export { DEFAULT_DECODER_PATH };
/** Longest wait for a decoded splat to be sorted and drawn before "ready" fires anyway. */
const SPLAT_FIRST_DRAW_TIMEOUT_MS = 5_000;
/** Scene parts downloading at once (download factories beyond this wait for a free slot). */
const PART_DOWNLOADS_AT_ONCE = 3;
const NO_PARTS: ReadonlyMap<string, Object3D> = new Map<string, Object3D>();

interface DecodedModel {
  model: LoadedModel;
  format: ModelFormat;
}

export function createViewer(options: ViewerOptions): Viewer {
  const device = detectDeviceProfile();
  const {
    container,
    background = DEFAULT_BACKGROUND,
    autorotate = false,
    maxPixelRatio = device.maxPixelRatio,
    splatBudget = device.splatBudget,
    fullscreenElement = container,
    decoderPath = DEFAULT_DECODER_PATH,
    splatTimeoutMs = DEFAULT_SPLAT_TIMEOUT_MS,
    viewDirection,
    initialCamera,
  } = options;

  const events = new Emitter<ViewerEvents>();
  const canvas = document.createElement("canvas");
  canvas.style.display = "block";
  canvas.style.width = "100%";
  canvas.style.height = "100%";
  canvas.style.outline = "none";
  canvas.style.background = background; // until the first frame is drawn
  canvas.tabIndex = 0;
  container.appendChild(canvas);

  const scene = new Scene();
  scene.background = new Color(background);
  const camera = new PerspectiveCamera(VIEWER_FOV, 1, 0.01, 1000);
  camera.position.set(0, 0, 3);
  scene.add(camera);
  const controls = new OrbitControls(camera, canvas);
  controls.enableDamping = true;
  controls.dampingFactor = 0.08;
  controls.screenSpacePanning = true;
  controls.autoRotate = autorotate;
  controls.autoRotateSpeed = 1.5;
  const stopAutorotate = () => {
    controls.autoRotate = false;
  };
  controls.addEventListener("start", stopAutorotate);

  // Created by the first load(): a canvas's WebGL attributes are fixed on first use, and meshes
  // want MSAA while splats are faster without it.
  let renderer: WebGLRenderer | null = null;
  let loop: RenderLoop | null = null;
  let gltfLoader: GltfLoaderHandle | null = null;
  let environment: Texture | null = null;
  let keyLight: DirectionalLight | null = null;
  let spark: SparkHandle | null = null;
  let model: LoadedModel | null = null;
  let loadCounter = 0;
  /** Aborted when a newer load (or dispose) supersedes the current one: a scene load stops waiting for its parts. */
  let loadAbort: AbortController | null = null;
  /** The loadScene() in flight, which addPart() waits for. */
  let pendingScene: Promise<void> | null = null;
  /** addPart() calls in flight, by part id (removePart() cancels one). */
  const pendingParts = new Map<string, symbol>();
  /** addPart() downloads share these slots. */
  const addPartSlots = createConcurrencyLimiter(PART_DOWNLOADS_AT_ONCE);
  let disposed = false;
  let needsRender = true;
  let modelFormat: ModelFormat | null = null;
  let navigationMode: NavigationMode = "orbit";
  let frames = 0;
  let firstFrameAt: number | null = null;
  let readyAt: number | null = null;
  const mark = markLoad;
  /** The model on show at the last render, and how many of its splats Spark drew (0 before its first sort). */
  let lastDrawn: { model: LoadedModel | null; splats: number } = { model: null, splats: 0 };
  /**
   * Set while a partial model is swapped for the whole one. Spark takes a new set of splats only between two
   * sorts, and a turning camera (autorotate) starts the next sort of the old set as soon as one ends: the coarse
   * level stayed on screen for 4 s after the whole guitar was in the scene (viewer bench, issue 20). A still
   * camera for those few frames lets the whole model's first sort in.
   */
  let swapping = false;
  /** Counts user moves of the camera, to keep their view when a preview is replaced by the full model. */
  let interactions = 0;
  const countInteraction = () => {
    interactions++;
  };
  controls.addEventListener("start", countInteraction);

  const onContextLost = (event: Event) => {
    event.preventDefault();
    if (!disposed) events.emit("error", new Error("The graphics context was lost; reload the page to view the model"));
  };
  canvas.addEventListener("webglcontextlost", onContextLost);

  function pixelRatio(): number {
    const dpr = typeof window === "undefined" ? 1 : window.devicePixelRatio || 1;
    return Math.max(0.5, Math.min(dpr, maxPixelRatio));
  }

  function resize(): void {
    if (disposed) return;
    const width = Math.max(1, Math.floor(container.clientWidth));
    const height = Math.max(1, Math.floor(container.clientHeight));
    camera.aspect = width / height;
    camera.updateProjectionMatrix();
    if (renderer) {
      renderer.setPixelRatio(pixelRatio());
      renderer.setSize(width, height, false);
      needsRender = true;
    }
  }

  const resizeObserver = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(() => resize());
  resizeObserver?.observe(container);
  resize();

  // Rendering is on demand: only when the camera moved (input, damping, autorotate), the canvas
  // was resized, a model changed, or Spark finished re-sorting splats. An idle viewer costs nothing.
  const requestRender = () => {
    needsRender = true;
  };
  controls.addEventListener("change", requestRender);

  function renderNow(): void {
    if (!renderer) return;
    needsRender = false;
    renderer.render(scene, camera);
    lastDrawn = { model, splats: spark && model ? splatsDrawnOf(spark, model.object) : 0 };
    frames++;
    events.emit("render", undefined);
  }

  function renderFrame(deltaSeconds: number): void {
    if (!renderer) return;
    // In fly mode the orbit controls must not turn the camera back towards their target. While a partial model
    // is swapped for the whole one the camera waits (see swapping).
    const moved = swapping ? false : fly.active ? fly.update(deltaSeconds) : controls.update(deltaSeconds);
    // Until a model is on show a turning camera changes nothing on screen: no frame, so the decoder (a worker)
    // does not share the CPU with empty frames at 60 fps — with a software rasteriser they cost seconds (issue 20).
    if ((moved && model !== null) || needsRender || spark?.dirty) renderNow();
  }

  function ensureRenderer(antialias: boolean): WebGLRenderer {
    if (renderer) return renderer;
    let created: WebGLRenderer;
    try {
      created = new WebGLRenderer({ canvas, antialias, powerPreference: "high-performance" });
    } catch (error) {
      throw toError(error, "WebGL is not available in this browser");
    }
    created.setClearColor(new Color(background), 1);
    renderer = created;
    resize();
    loop = startRenderLoop(created, renderFrame);
    return created;
  }

  function ensureMeshLighting(target: WebGLRenderer): void {
    if (!environment) {
      const pmrem = new PMREMGenerator(target);
      const room = new RoomEnvironment();
      environment = pmrem.fromScene(room, 0.04).texture;
      room.dispose();
      pmrem.dispose();
    }
    if (!keyLight) {
      keyLight = new DirectionalLight(0xffffff, 1.2);
      keyLight.position.set(0.5, 1, 0.75);
      camera.add(keyLight); // moves with the view so the visible side is always lit
    }
    scene.environment = environment;
    keyLight.visible = true;
  }

  async function ensureSpark(target: WebGLRenderer): Promise<void> {
    if (spark) return;
    const created = await createSparkRenderer(target, splatBudget);
    if (disposed) {
      created.dispose();
      return;
    }
    spark = created;
    scene.add(created);
  }

  /** Takes Spark out of the scene; it is disposed once its in-flight sort (if any) has finished. */
  function retireSpark(): Promise<void> {
    const retired = spark;
    if (!retired) return Promise.resolve();
    spark = null;
    scene.remove(retired);
    return whenSparkIdle(retired).then(() => retired.dispose());
  }

  /** Puts `next` in the scene instead of the model on show (Spark keeps drawing its last sort until the next one). */
  function replaceModel(next: LoadedModel): void {
    if (model) {
      scene.remove(model.object);
      model.dispose();
    }
    model = next;
    scene.add(next.object);
    needsRender = true;
    events.emit("parts", partIds());
  }

  function partIds(): string[] {
    return isSceneModel(model) ? [...model.parts.keys()] : [];
  }

  /**
   * Meshes are lit (environment + key light) and tone mapped, also next to splats; splat colours
   * are already display-referred (Spark's shader applies no tone mapping). Spark goes when no splat is left.
   */
  function applyLighting(kind: LoadedModel["kind"], target: WebGLRenderer): void {
    if (kind === "mesh") void retireSpark(); // no splats left to draw
    if (kind === "splat") {
      scene.environment = null;
      if (keyLight) keyLight.visible = false;
      target.toneMapping = NoToneMapping;
    } else {
      ensureMeshLighting(target);
      target.toneMapping = NeutralToneMapping;
    }
    needsRender = true;
  }

  /** Resolves after the next frame (or ~16 ms when the loop is paused, rendering by hand if needed). */
  async function tick(): Promise<void> {
    if (loop?.running) return loop.nextFrame();
    if (needsRender || spark?.dirty) renderNow();
    await new Promise((resolve) => setTimeout(resolve, 16));
  }

  /**
   * Resolves once the new model has been drawn. Spark sorts splats in a worker after the first
   * render, so for splats this waits (bounded) until the sorted splats reached the canvas.
   */
  async function waitForFirstDraw(kind: LoadedModel["kind"]): Promise<void> {
    if (!renderer) return;
    mark("presented");
    renderNow(); // synchronous: compiles shaders and surfaces GPU errors inside load()
    if (kind !== "mesh" && spark) {
      const shown = model;
      const deadline = performance.now() + SPLAT_FIRST_DRAW_TIMEOUT_MS;
      let drawn = false;
      while (!disposed && spark && performance.now() < deadline) {
        // A frame of the render loop drew this model's sorted splats: that is the first frame. Drawing
        // another one on top cost a whole frame (~0.7 s for 90k splats under SwiftShader; issue 20).
        if (lastDrawn.model === shown && lastDrawn.splats > 0) {
          drawn = true;
          break;
        }
        // A first sort has finished but no frame drew it yet (a still camera, or a paused loop). Waiting
        // for Spark to settle could take long: a moving camera (autorotate) keeps it re-sorting.
        if (shown && splatsDrawnOf(spark, shown.object) > 0) break;
        await tick();
      }
      if (!drawn && !disposed && renderer) renderNow(); // draws the sorted splats
    }
    if (disposed || !renderer) return;
    if (needsRender) renderNow();
    waitForGpu(renderer.getContext()); // gpu-fence.ts: finish(), not a polled fence (issue 20)
    if (firstFrameAt === null) mark("first-frame");
    firstFrameAt ??= performance.now();
    if (!disposed && loop?.running) await loop.nextFrame();
  }

  /**
   * Puts a decoded model on show: lighting for its kind, then the camera framed on it (and moved to
   * the item's saved opening view), unless `keepCamera` (the user has moved since the preview).
   */
  function presentModel(next: LoadedModel, format: ModelFormat, keepCamera: boolean): void {
    applyLighting(next.kind, ensureRenderer(next.kind === "mesh"));
    replaceModel(next);
    modelFormat = format;
    const kept = keepCamera ? { position: camera.position.clone(), target: controls.target.clone() } : null;
    frameModel(next);
    if (kept) {
      camera.position.copy(kept.position);
      controls.target.copy(kept.target);
      if (!fly.active) controls.update();
    }
  }

  /** Frames the camera on the model; the owner's saved opening view (item settings) wins, the zoom limits stay the fit's. */
  function frameModel(shown: LoadedModel): void {
    frameCamera(camera, controls, shown.bounds, viewDirection ?? viewDirectionFor(shown.kind));
    if (initialCamera) {
      applyCameraView(camera, controls, initialCamera);
      controls.saveState(); // "reset view" returns here
    }
    needsRender = true;
  }

  /**
   * Decodes a whole file: the format from its magic bytes (the name as a tie-breaker), splats
   * through Spark, glTF through GLTFLoader. Rejects with a readable Error.
   */
  async function decodeModel(
    bytes: ArrayBuffer,
    fileName: string | undefined,
    onProgress?: (loaded: number, total: number | null) => void,
    early?: Promise<EarlyDecoded | null> | null,
  ): Promise<DecodedModel> {
    let adopted = false;
    try {
      const { fromEarly, ...decoded } = await decodeFile(bytes, fileName, onProgress, early);
      adopted = fromEarly;
      return decoded;
    } finally {
      // An early decode not taken (other bytes or settings, or this decode failed) is let go.
      if (early && !adopted) early.then((unused) => unused?.model.dispose()).catch(() => undefined);
    }
  }

  async function decodeFile(
    bytes: ArrayBuffer,
    fileName: string | undefined,
    onProgress: ((loaded: number, total: number | null) => void) | undefined,
    early: Promise<EarlyDecoded | null> | null | undefined,
  ): Promise<DecodedModel & { fromEarly: boolean }> {
    if (!(bytes instanceof ArrayBuffer) || bytes.byteLength === 0) throw new Error(EMPTY_OR_CORRUPTED);
    const format = detectFileFormat(bytes, fileName);
    if (!format) throw new Error(EMPTY_OR_CORRUPTED);
    const splat = isSplatFormat(format);
    const target = ensureRenderer(!splat);
    if (splat) {
      await ensureSpark(target);
      mark("splat-renderer");
      // The page's early decode of these same bytes (early-decode.ts), when it made what we would make.
      const earlier = early ? await early.catch(() => null) : null;
      if (earlier && earlier.bytes === bytes && earlier.format === format && earlier.splatBudget === splatBudget && splatTimeoutMs === DEFAULT_SPLAT_TIMEOUT_MS) {
        mark("early-decode-taken");
        return { format, model: earlier.model, fromEarly: true };
      }
      return { format, model: await loadSplat({ bytes, format, fileName, timeoutMs: splatTimeoutMs, splatBudget, onProgress }), fromEarly: false };
    }
    // GLTFLoader and its decoders load with the first mesh: a splat page never downloads them (issue 20).
    const { createGltfLoader, loadGltf } = await import("./load-gltf");
    if (disposed) throw new LoadCancelledError("The viewer was disposed during loading");
    gltfLoader ??= createGltfLoader(target, decoderPath);
    return { format, model: await loadGltf(gltfLoader.loader, bytes, format), fromEarly: false };
  }

  /** Starts a load that supersedes the one in flight (if any). */
  function beginLoad() {
    loadAbort?.abort();
    const abort = new AbortController();
    loadAbort = abort;
    const token = ++loadCounter;
    const isCurrent = () => !disposed && token === loadCounter;
    const cancellation = () =>
      new LoadCancelledError(disposed ? "The viewer was disposed during loading" : "A newer model replaced this one");
    const fail = (error: unknown, fallback: string): Error => {
      const err = error instanceof LoadCancelledError ? error : toError(error, fallback);
      if (isCurrent() && !(err instanceof LoadCancelledError)) events.emit("error", err);
      return err;
    };
    firstFrameAt = null;
    readyAt = null;
    return { isCurrent, cancellation, fail, signal: abort.signal };
  }

  /**
   * Puts a partial model (a download's first splats, or the model's coarse level) on show before the whole
   * model, and says so; resolves whether it was shown (not when a newer load superseded it meanwhile).
   */
  async function presentPartial(partial: LoadedModel, format: ModelFormat, isCurrent: () => boolean, preview: ViewerPreviewEvent): Promise<boolean> {
    if (!isCurrent()) {
      partial.dispose();
      return false;
    }
    presentModel(partial, format, false);
    await waitForFirstDraw("splat");
    if (!isCurrent() || model !== partial) return false;
    events.emit("preview", preview);
    return true;
  }

  /** Shows the first splats of a download that is still running (streamed-load.ts). A failure here is not the load's. */
  async function showPreview(preview: PreviewBytes, fileName: string | undefined, isCurrent: () => boolean): Promise<boolean> {
    try {
      await ensureSpark(ensureRenderer(false));
      const partial = await loadSplat({ bytes: preview.bytes.buffer as ArrayBuffer, format: preview.format, fileName, timeoutMs: splatTimeoutMs });
      return await presentPartial(partial, preview.format, isCurrent, {
        format: preview.format,
        from: "prefix",
        splatCount: partial.splatCount ?? preview.splats,
        loaded: preview.loaded,
        total: preview.total,
      });
    } catch {
      return false; // the whole file follows; its errors are the ones reported
    }
  }

  /**
   * Shows the model's coarse level (StreamedLoadRequest.coarse) when it is decoded before the whole model
   * (`wholeDecoded`); `presenting` receives the presentation under way, which the whole model waits for. A
   * failure here is not the load's: the whole model follows.
   */
  async function showCoarse({
    coarse,
    whole,
    fileName,
    isCurrent,
    wholeDecoded,
    presenting,
  }: {
    coarse: ModelDownload;
    whole: ModelDownload;
    fileName: string | undefined;
    isCurrent: () => boolean;
    wholeDecoded: () => boolean;
    presenting: (shown: Promise<boolean>) => void;
  }): Promise<boolean> {
    const early = takeEarlyDecode(coarse);
    try {
      const bytes = await coarse.done;
      if (!isCurrent() || wholeDecoded()) {
        early?.then((unused) => unused?.model.dispose()).catch(() => undefined);
        return false;
      }
      const { model: partial, format } = await decodeModel(bytes, fileName, undefined, early);
      if (!isSplatFormat(format) || wholeDecoded()) {
        partial.dispose();
        return false;
      }
      mark("coarse-decoded");
      const shown = presentPartial(partial, format, isCurrent, { format, from: "coarse", splatCount: partial.splatCount ?? 0, loaded: whole.loaded, total: whole.total });
      presenting(shown);
      return await shown;
    } catch {
      return false;
    }
  }

  async function load(request: LoadRequest | StreamedLoadRequest): Promise<void> {
    if (disposed) throw new Error("The viewer has been disposed");
    const { fileName } = request;
    const { isCurrent, cancellation, fail } = beginLoad();

    const started = performance.now();
    mark("load");
    let previewedAt: number | null = null;
    let loaded: LoadedModel;
    let format: ModelFormat;
    // A decode the page started before the viewer existed (decision 035); disposed when not used.
    let early = "download" in request ? takeEarlyDecode(request.download) : null;
    // The coarse level goes on show meanwhile when it is decoded first; the whole model then waits for a
    // presentation under way (its first frame is bounded) and replaces it.
    let wholeDecoded = false;
    let coarsePresenting: Promise<boolean> | null = null;
    if ("download" in request && request.coarse) {
      void showCoarse({
        coarse: request.coarse,
        whole: request.download,
        fileName,
        isCurrent,
        wholeDecoded: () => wholeDecoded,
        presenting: (shown) => (coarsePresenting = shown),
      });
    }
    try {
      const bytes =
        "download" in request
          ? await receiveDownload({
              download: request.download,
              fileName,
              isCurrent,
              // Spark (~0.9 MB gzipped) downloads alongside the splat file instead of after it.
              onFormat: (detected) => {
                if (isSplatFormat(detected)) loadSpark().catch(() => undefined);
              },
              showPreview: async (preview) => {
                if (await showPreview(preview, fileName, isCurrent)) previewedAt = interactions;
              },
            })
          : request.bytes;
      if (!isCurrent()) throw cancellation();
      mark("received");
      const pending = early;
      early = null;
      ({ model: loaded, format } = await decodeModel(
        bytes,
        fileName,
        (done, total) => {
          if (isCurrent()) events.emit("progress", { loaded: done, total });
        },
        pending,
      ));
      mark("decoded");
    } catch (error) {
      early?.then((unused) => unused?.model.dispose()).catch(() => undefined);
      throw fail(error, EMPTY_OR_CORRUPTED);
    } finally {
      wholeDecoded = true;
    }
    const coarseShown = coarsePresenting !== null && (await (coarsePresenting as Promise<boolean>));
    try {
      // Spark may have been retired meanwhile (removePart() took the last splat of the scene on show).
      if (loaded.kind === "splat" && isCurrent()) await ensureSpark(ensureRenderer(false));
    } catch (error) {
      loaded.dispose();
      throw fail(error, "The splat renderer could not be loaded");
    }
    if (!isCurrent()) {
      loaded.dispose();
      throw cancellation();
    }

    try {
      // After the coarse level the camera stays where it is (framed on the same splat, or moved by the user);
      // after a download's first splats it is framed on the whole model unless the user has moved since.
      presentModel(loaded, format, coarseShown || (previewedAt !== null && previewedAt !== interactions));
      swapping = coarseShown || previewedAt !== null;
      await waitForFirstDraw(loaded.kind);
      readyAt = performance.now();
    } catch (error) {
      throw fail(error, "The model could not be displayed");
    } finally {
      swapping = false;
    }
    if (!isCurrent()) throw cancellation();
    events.emit("ready", {
      format,
      loadMs: Math.round(performance.now() - started),
      ...(loaded.splatCount !== undefined ? { splatCount: loaded.splatCount } : {}),
    });
  }

  /**
   * The bytes of one scene part. A download factory is only called when one of `slots` is free (and
   * not at all once the load is no longer current); `onProgress` follows the bytes received.
   */
  function receivePart(
    part: ScenePartRequest,
    slots: ConcurrencyLimiter,
    isCurrent: () => boolean,
    cancellation: () => Error,
    onProgress: (progress: PartProgress) => void,
  ): Promise<ArrayBuffer> {
    const follow = (download: ModelDownload): Promise<ArrayBuffer> => {
      const report = () => onProgress({ loaded: download.loaded, total: download.total });
      report();
      const stop = download.onData(report);
      return download.done.finally(() => {
        stop();
        if (isCurrent()) report();
      });
    };
    const { download } = part;
    if (typeof download !== "function") return follow(download);
    return slots.run(() => (isCurrent() ? follow(download()) : Promise.reject(cancellation())));
  }

  /** Downloads and decodes one part; the decoded model is freed when the load stopped being current meanwhile. */
  async function decodePart(
    part: ScenePartRequest,
    slots: ConcurrencyLimiter,
    isCurrent: () => boolean,
    cancellation: () => Error,
    onProgress: (progress: PartProgress) => void,
  ): Promise<DecodedModel> {
    const bytes = await receivePart(part, slots, isCurrent, cancellation, onProgress);
    if (!isCurrent()) throw cancellation();
    const decoded = await decodeModel(bytes, part.fileName);
    if (!isCurrent()) {
      decoded.model.dispose();
      throw cancellation();
    }
    return decoded;
  }

  /** Resolves with `promise`, or rejects with `cancellation()` as soon as `signal` aborts. */
  function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal, cancellation: () => Error): Promise<T> {
    if (signal.aborted) return Promise.reject(cancellation());
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(cancellation());
      signal.addEventListener("abort", onAbort, { once: true });
      promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
    });
  }

  function loadScene(request: SceneLoadRequest): Promise<void> {
    const loading = loadSceneNow(request);
    pendingScene = loading;
    const clear = () => {
      if (pendingScene === loading) pendingScene = null;
    };
    loading.then(clear, clear);
    return loading;
  }

  async function loadSceneNow(request: SceneLoadRequest): Promise<void> {
    if (disposed) throw new Error("The viewer has been disposed");
    const { isCurrent, cancellation, fail, signal } = beginLoad();
    const started = performance.now();
    const requested: unknown = request?.parts;
    if (!Array.isArray(requested)) throw fail(new Error("A scene needs a list of parts"), EMPTY_SCENE);
    if (requested.length === 0) throw fail(new Error(EMPTY_SCENE), EMPTY_SCENE);

    const partError = (id: string, error: unknown) => {
      if (isCurrent()) events.emit("part-error", { id, error: toError(error, EMPTY_OR_CORRUPTED) });
    };
    const parts: ScenePartRequest[] = [];
    const errors: Error[] = [];
    const ids = new Set<string>();
    requested.forEach((input: unknown, index) => {
      try {
        const part = validateScenePart(input);
        if (ids.has(part.id)) throw new Error(`${part.name ?? part.id}: the scene has two parts with this id`);
        ids.add(part.id);
        parts.push(part);
      } catch (error) {
        const err = toError(error, "Invalid scene part");
        errors.push(err);
        const id = (input as { id?: unknown } | null)?.id;
        partError(typeof id === "string" ? id : `#${index + 1}`, err);
      }
    });

    // Meshes want MSAA, which is fixed when the renderer is made; Spark is fetched meanwhile for splats.
    try {
      if (parts.some((part) => looksLikeMeshFile(part.fileName))) ensureRenderer(true);
    } catch (error) {
      throw fail(error, "WebGL is not available in this browser");
    }
    if (parts.some((part) => !looksLikeMeshFile(part.fileName))) loadSpark().catch(() => undefined);

    const slots = createConcurrencyLimiter(PART_DOWNLOADS_AT_ONCE);
    const progress: Array<PartProgress | null> = parts.map(() => null);
    const emitProgress = () => {
      if (isCurrent()) events.emit("progress", sumProgress(progress));
    };
    const decoded: Array<DecodedModel | null> = parts.map(() => null);
    const settled = Promise.all(
      parts.map((part, index) =>
        decodePart(part, slots, isCurrent, cancellation, (current) => {
          progress[index] = current;
          emitProgress();
        }).then(
          (result) => {
            decoded[index] = result;
          },
          (error: unknown) => {
            if (error instanceof LoadCancelledError) return;
            // A failed part no longer holds the summed total back.
            const received = progress[index]?.loaded ?? 0;
            progress[index] = { loaded: received, total: received };
            emitProgress();
            const err = toError(error, EMPTY_OR_CORRUPTED);
            errors.push(err);
            partError(part.id, err);
          },
        ),
      ),
    );
    const freeDecoded = () => {
      for (const result of decoded) result?.model.dispose();
    };
    try {
      await unlessAborted(settled, signal, cancellation);
    } catch (error) {
      // Parts still decoding free themselves (decodePart); the ones done are freed here.
      void settled.then(freeDecoded);
      throw fail(error, EMPTY_OR_CORRUPTED);
    }
    if (!isCurrent()) {
      freeDecoded();
      throw cancellation();
    }

    const composite = createSceneModel();
    parts.forEach((part, index) => {
      const result = decoded[index];
      if (result) composite.add({ id: part.id, name: part.name, format: result.format, model: result.model, transform: part.transform });
    });
    const format = composite.format;
    if (!format) {
      composite.dispose();
      throw fail(allPartsFailedError(errors), EMPTY_OR_CORRUPTED);
    }
    try {
      // Spark may have been retired meanwhile (a part removed from the scene still on show).
      if (composite.kind !== "mesh") await ensureSpark(ensureRenderer(false));
    } catch (error) {
      composite.dispose();
      throw fail(error, "The splat renderer could not be loaded");
    }
    if (!isCurrent()) {
      composite.dispose();
      throw cancellation();
    }
    try {
      presentModel(composite, format, false);
      await waitForFirstDraw(composite.kind);
      readyAt = performance.now();
    } catch (error) {
      throw fail(error, "The scene could not be displayed");
    }
    if (!isCurrent()) throw cancellation();
    const splatCount = composite.splatCount;
    events.emit("ready", {
      format,
      loadMs: Math.round(performance.now() - started),
      parts: composite.parts.size,
      ...(splatCount !== undefined ? { splatCount } : {}),
    });
  }

  async function addPart(request: ScenePartRequest): Promise<void> {
    if (disposed) throw new Error("The viewer has been disposed");
    const generation = loadCounter;
    // A scene still loading gets the part once it is on show.
    if (pendingScene) await pendingScene.catch(() => undefined);
    if (disposed || loadCounter !== generation) {
      throw new LoadCancelledError(disposed ? "The viewer was disposed during loading" : "A newer model replaced this one");
    }
    const shown = model;
    if (!isSceneModel(shown)) return loadScene({ parts: [request] });

    const part = validateScenePart(request);
    if (shown.parts.has(part.id) || pendingParts.has(part.id)) throw new Error(`The scene already has a part "${part.id}"`);
    const ticket = Symbol(part.id);
    pendingParts.set(part.id, ticket);
    const isCurrent = () => !disposed && loadCounter === generation && model === shown && pendingParts.get(part.id) === ticket;
    const cancellation = () =>
      new LoadCancelledError(disposed ? "The viewer was disposed during loading" : pendingParts.get(part.id) === ticket ? "A newer model replaced this scene" : "The part was removed");
    try {
      const { model: added, format } = await decodePart(part, addPartSlots, isCurrent, cancellation, () => undefined);
      try {
        // Spark may have been retired meanwhile (the scene's last splat removed).
        if (added.kind === "splat") await ensureSpark(ensureRenderer(false));
      } catch (error) {
        added.dispose();
        throw error;
      }
      if (!isCurrent()) {
        added.dispose();
        throw cancellation();
      }
      const wasEmpty = shown.parts.size === 0;
      shown.add({ id: part.id, name: part.name, format, model: added, transform: part.transform });
      if (renderer) applyLighting(shown.kind, renderer);
      if (wasEmpty) {
        modelFormat = format;
        frameModel(shown); // the camera stays where the user put it, unless there was nothing to look at
      }
      events.emit("parts", partIds());
      await waitForFirstDraw(added.kind);
    } finally {
      if (pendingParts.get(part.id) === ticket) pendingParts.delete(part.id);
    }
  }

  function removePart(id: string): boolean {
    if (pendingParts.delete(id)) return true; // its addPart() rejects and frees what it decoded
    const shown = model;
    if (disposed || !isSceneModel(shown) || !shown.remove(id)) return false;
    if (renderer) applyLighting(shown.kind, renderer);
    modelFormat = shown.format;
    needsRender = true;
    events.emit("parts", partIds());
    return true;
  }

  function resetView(): void {
    setNavigationMode("orbit");
    controls.autoRotate = false;
    controls.reset(); // the state saved when the model was framed (or the saved opening view)
    needsRender = true;
  }

  function setNavigationMode(mode: NavigationMode): void {
    if (mode === navigationMode || disposed) return;
    navigationMode = mode;
    if (mode === "fly") {
      countInteraction();
      fly.enable();
    } else {
      fly.disable();
    }
    needsRender = true;
    events.emit("navigation", mode);
  }

  /** Double-click / double-tap: orbit around the surface point there, a little closer. */
  function focusAt(clientX: number, clientY: number): boolean {
    const hit = model ? pickSurface(viewer, clientX, clientY) : null;
    if (!hit) return false;
    setNavigationMode("orbit");
    countInteraction();
    controls.autoRotate = false;
    const point = new Vector3().fromArray(hit.point);
    const away = camera.position.clone().sub(point);
    const distance = Math.min(Math.max(away.length() * 0.6, controls.minDistance * 2), controls.maxDistance);
    const position = point.clone().add(away.setLength(distance));
    void flyTo(viewer, { target: hit.point, position: position.toArray() as [number, number, number] }, { durationMs: 600 });
    return true;
  }

  const fly = createFlyNavigation({
    camera,
    controls,
    canvas,
    speedScale: () => Math.max(controls.minDistance * 20, 1e-3), // ≈ the model's radius (camera-fit.ts)
    onChange: () => {
      needsRender = true;
    },
  });

  const onKeyDown = (event: KeyboardEvent) => {
    const action = keyAction(event, navigationMode);
    if (!action || !model) return;
    event.preventDefault();
    switch (action.type) {
      case "reset":
        resetView();
        break;
      case "fullscreen":
        void toggleElementFullscreen(fullscreenElement);
        break;
      case "toggle-mode":
        setNavigationMode(navigationMode === "fly" ? "orbit" : "fly");
        break;
      case "exit-fly":
        setNavigationMode("orbit");
        break;
      case "fly":
        fly.setKey(action.direction, true, event.shiftKey);
        break;
      default:
        countInteraction();
        controls.autoRotate = false;
        if (applyOrbitStep(camera, controls, action)) needsRender = true;
    }
  };
  const onKeyUp = (event: KeyboardEvent) => {
    const action = keyAction(event, "fly");
    if (action?.type === "fly") fly.setKey(action.direction, false, event.shiftKey);
  };
  // Escape leaves fly mode wherever the focus is: the toolbar button that entered it keeps the focus, and
  // the canvas handles its own keys (it marks them handled). Text fields keep their Escape.
  const onDocumentKeyDown = (event: KeyboardEvent) => {
    if (navigationMode !== "fly" || event.defaultPrevented || keyAction(event, "fly")?.type !== "exit-fly") return;
    const target = event.target as HTMLElement | null;
    if (target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))) return;
    setNavigationMode("orbit");
  };
  const onBlur = () => fly.releaseKeys();
  // A click gives the canvas keyboard focus (OrbitControls cancels the pointer's default actions).
  const onPointerDown = () => canvas.focus({ preventScroll: true });
  canvas.addEventListener("keydown", onKeyDown);
  canvas.addEventListener("keyup", onKeyUp);
  canvas.ownerDocument.addEventListener("keydown", onDocumentKeyDown);
  canvas.addEventListener("blur", onBlur);
  canvas.addEventListener("pointerdown", onPointerDown);
  const detachFocusGesture = onDoubleActivate(canvas, (x, y) => {
    focusAt(x, y);
  });

  // A glTF model placed in AR instead of the model on show (a scan's light textured mesh beside its splat):
  // downloaded and decoded on the first "View in your space", kept for the next, freed with the viewer.
  let arModelSource: (() => Promise<ArrayBuffer>) | null = null;
  let arModelLoad: Promise<LoadedModel> | null = null;

  function setArModel(load: (() => Promise<ArrayBuffer>) | null): void {
    arModelSource = load;
    const previous = arModelLoad;
    arModelLoad = null;
    previous?.then((loaded) => loaded.dispose(), () => undefined);
  }

  /** What AR shows: the mesh on show, else the AR model (null when there is neither). */
  async function arObject(): Promise<Object3D | null> {
    if (model?.kind === "mesh") return model.object;
    const source = arModelSource;
    if (!source) return null;
    if (!arModelLoad) {
      const load = (async () => {
        const bytes = await source();
        if (!(bytes instanceof ArrayBuffer) || bytes.byteLength === 0) throw new Error(EMPTY_OR_CORRUPTED);
        const format = detectFileFormat(bytes, "model.glb");
        if (format !== "glb" && format !== "gltf") throw new Error("The model for viewing in your space is not a glTF file");
        if (disposed || !renderer) throw new LoadCancelledError("The viewer was disposed during loading");
        const { createGltfLoader, loadGltf } = await import("./load-gltf");
        if (disposed || !renderer) throw new LoadCancelledError("The viewer was disposed during loading");
        gltfLoader ??= createGltfLoader(renderer, decoderPath);
        const loaded = await loadGltf(gltfLoader.loader, bytes, format);
        if (disposed) {
          loaded.dispose();
          throw new LoadCancelledError("The viewer was disposed during loading");
        }
        return loaded;
      })();
      arModelLoad = load;
      // A failed download may be retried by the next click.
      load.catch(() => {
        if (arModelLoad === load) arModelLoad = null;
      });
    }
    return (await arModelLoad).object;
  }

  async function arSupport(): Promise<ArSupport> {
    if (model?.kind !== "mesh" && !(model && arModelSource)) return { webxr: false, quickLook: false };
    const { detectArSupport } = await import("./ar"); // AR code loads when a mesh (or an AR model) asks for it
    return detectArSupport();
  }

  async function viewInAr(): Promise<void> {
    if (!model || !renderer || !loop || (model.kind !== "mesh" && !arModelSource)) throw new Error("Only 3D meshes (glTF) can be viewed in your space");
    const { detectArSupport, exportUsdz, openQuickLook, runWebXrAr } = await import("./ar");
    const support = await detectArSupport();
    if (!support.webxr && !support.quickLook) throw new Error("Viewing in your space needs Chrome on an ARCore phone or Safari on an iPhone or iPad");
    const object = await arObject();
    if (!object || disposed || !renderer || !loop) return;
    if (support.webxr) {
      const release = loop.hold();
      try {
        await runWebXrAr({ renderer, object });
      } finally {
        release();
        resize();
      }
      return;
    }
    if (support.quickLook) {
      openQuickLook(await exportUsdz(object));
      return;
    }
    throw new Error("Viewing in your space needs Chrome on an ARCore phone or Safari on an iPhone or iPad");
  }

  function getStats(): ViewerStats {
    const info = renderer?.info;
    return {
      format: modelFormat,
      frames,
      geometries: info?.memory.geometries ?? 0,
      textures: info?.memory.textures ?? 0,
      programs: info?.programs?.length ?? 0,
      splats: model?.splatCount ?? 0,
      drawnSplats: lastDrawn.splats,
      firstFrameAt,
      readyAt,
      navigationMode,
      view: getCameraView({ camera, controls }),
    };
  }
  const unregister = registerViewer(getStats);

  function dispose(): void {
    if (disposed) return;
    disposed = true;
    loadAbort?.abort();
    pendingParts.clear();
    unregister();
    fly.dispose();
    detachFocusGesture();
    canvas.removeEventListener("keydown", onKeyDown);
    canvas.ownerDocument.removeEventListener("keydown", onDocumentKeyDown);
    canvas.removeEventListener("keyup", onKeyUp);
    canvas.removeEventListener("blur", onBlur);
    canvas.removeEventListener("pointerdown", onPointerDown);
    controls.removeEventListener("start", countInteraction);
    loop?.dispose();
    resizeObserver?.disconnect();
    canvas.removeEventListener("webglcontextlost", onContextLost);
    controls.removeEventListener("start", stopAutorotate);
    controls.removeEventListener("change", requestRender);
    controls.dispose();
    if (model) {
      scene.remove(model.object);
      model.dispose();
      model = null;
    }
    setArModel(null);
    keyLight?.dispose();
    environment?.dispose();
    gltfLoader?.dispose();
    scene.environment = null;
    scene.background = null;
    canvas.remove();
    events.clear();
    // The WebGL context goes last, after Spark has finished a sort it may have in flight.
    const finalRenderer = renderer;
    renderer = null;
    void retireSpark().then(() => {
      if (!finalRenderer) return;
      finalRenderer.setAnimationLoop(null);
      finalRenderer.renderLists.dispose();
      finalRenderer.dispose();
      // Browsers cap live WebGL contexts (~16); release ours now rather than at garbage collection.
      finalRenderer.forceContextLoss();
    });
  }

  const viewer: Viewer = {
    canvas,
    stage: { container, scene, camera, controls, model: () => model, parts: () => (isSceneModel(model) ? model.groups : NO_PARTS), requestRender },
    load,
    loadScene,
    addPart,
    removePart,
    resize,
    dispose,
    resetView,
    get navigationMode() {
      return navigationMode;
    },
    setNavigationMode,
    focusAt,
    toggleFullscreen: () => toggleElementFullscreen(fullscreenElement),
    arSupport,
    viewInAr,
    setArModel,
    getStats,
    on: (event, listener) => events.on(event, listener),
    off: (event, listener) => events.off(event, listener),
  };
  return viewer;
}
