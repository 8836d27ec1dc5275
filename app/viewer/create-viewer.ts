/**
 * The framework-free three.js viewer: one canvas, one scene, one model at a time.
 * Lifecycle: createViewer() → load() (any number of times) → dispose().
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
  type Texture,
} from "three";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";
import { RoomEnvironment } from "three/addons/environments/RoomEnvironment.js";
import { detectModelFormat, type ModelFormat } from "../lib/model-format";
import { detectArSupport, exportUsdz, openQuickLook, runWebXrAr, type ArSupport } from "./ar";
import { flyTo } from "./camera-flight";
import { detectDeviceProfile } from "./device-profile";
import { registerViewer } from "./diagnostics";
import { createFlyNavigation } from "./fly-navigation";
import { onDoubleActivate } from "./focus-gesture";
import { toggleFullscreen as toggleElementFullscreen } from "./fullscreen";
import { applyOrbitStep, keyAction } from "./keyboard-navigation";
import { pickSurface } from "./picking";
import { receiveDownload, type PreviewBytes } from "./streamed-load";
import { Emitter } from "./emitter";
import { EMPTY_OR_CORRUPTED, LoadCancelledError, toError } from "./errors";
import { viewDirectionFor } from "./camera-fit";
import { applyCameraView } from "./camera-view";
import { frameCamera } from "./frame-camera";
import { waitForGpu } from "./gpu-fence";
import { createGltfLoader, loadGltf, type GltfLoaderHandle } from "./load-gltf";
import { createSparkRenderer, isSplatFormat, loadSpark, loadSplat, whenSparkIdle, type SparkHandle } from "./load-splat";
import type { LoadedModel } from "./loaded-model";
import { startRenderLoop, type RenderLoop } from "./render-loop";
import type { LoadRequest, NavigationMode, StreamedLoadRequest, Viewer, ViewerEvents, ViewerOptions, ViewerStats } from "./types";

export const DEFAULT_BACKGROUND = "#1e1f22";
export const DEFAULT_DECODER_PATH = "/viewer-libs/";
const DEFAULT_SPLAT_TIMEOUT_MS = 60_000;
/** Bytes handed to format detection (enough for a .ksplat header and any PLY header). */
const HEAD_BYTES = 64 * 1024;
/** Longest wait for a decoded splat to be sorted and drawn before "ready" fires anyway. */
const SPLAT_FIRST_DRAW_TIMEOUT_MS = 5_000;

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
  const camera = new PerspectiveCamera(45, 1, 0.01, 1000);
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
  let disposed = false;
  let needsRender = true;
  let modelFormat: ModelFormat | null = null;
  let navigationMode: NavigationMode = "orbit";
  let frames = 0;
  let firstFrameAt: number | null = null;
  let readyAt: number | null = null;
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
    frames++;
    events.emit("render", undefined);
  }

  function renderFrame(deltaSeconds: number): void {
    if (!renderer) return;
    // In fly mode the orbit controls must not turn the camera back towards their target.
    const moved = fly.active ? fly.update(deltaSeconds) : controls.update(deltaSeconds);
    if (moved || needsRender || spark?.dirty) renderNow();
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

  function replaceModel(next: LoadedModel): void {
    if (model) {
      scene.remove(model.object);
      model.dispose();
    }
    model = next;
    scene.add(next.object);
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
    renderNow(); // synchronous: compiles shaders and surfaces GPU errors inside load()
    if (kind === "splat" && spark) {
      const deadline = performance.now() + SPLAT_FIRST_DRAW_TIMEOUT_MS;
      while (!disposed && spark && performance.now() < deadline) {
        if (spark.activeSplats > 0 && !spark.sorting && !spark.sortDirty && !spark.dirty) break;
        await tick();
      }
    }
    if (disposed || !renderer) return;
    if (needsRender) renderNow();
    await waitForGpu(renderer.getContext());
    if (!disposed && loop?.running) await loop.nextFrame();
    firstFrameAt ??= performance.now();
  }

  /**
   * Puts a decoded model on show: lighting for its kind, then the camera framed on it (and moved to
   * the item's saved opening view), unless `keepCamera` (the user has moved since the preview).
   */
  function presentModel(next: LoadedModel, format: ModelFormat, keepCamera: boolean): void {
    const target = ensureRenderer(next.kind === "mesh");
    if (next.kind === "mesh") {
      void retireSpark(); // no splats left to draw
      ensureMeshLighting(target);
      target.toneMapping = NeutralToneMapping;
    } else {
      scene.environment = null;
      if (keyLight) keyLight.visible = false;
      target.toneMapping = NoToneMapping; // splat colours are already display-referred
    }
    replaceModel(next);
    modelFormat = format;
    const kept = keepCamera ? { position: camera.position.clone(), target: controls.target.clone() } : null;
    frameCamera(camera, controls, next.bounds, viewDirection ?? viewDirectionFor(next.kind));
    // The owner's saved opening view (item settings) wins over automatic framing; the zoom limits stay the fit's.
    if (initialCamera) {
      applyCameraView(camera, controls, initialCamera);
      controls.saveState(); // "reset view" returns here
    }
    if (kept) {
      camera.position.copy(kept.position);
      controls.target.copy(kept.target);
      if (!fly.active) controls.update();
    }
  }

  /** Shows the first splats of a download that is still running (streamed-load.ts). A failure here is not the load's. */
  async function showPreview(preview: PreviewBytes, fileName: string | undefined, isCurrent: () => boolean): Promise<void> {
    try {
      await ensureSpark(ensureRenderer(false));
      const partial = await loadSplat({ bytes: preview.bytes.buffer as ArrayBuffer, format: preview.format, fileName, timeoutMs: splatTimeoutMs });
      if (!isCurrent()) {
        partial.dispose();
        return;
      }
      presentModel(partial, preview.format, false);
      await waitForFirstDraw("splat");
      if (!isCurrent()) return;
      events.emit("preview", { format: preview.format, splatCount: partial.splatCount ?? preview.splats, loaded: preview.loaded, total: preview.total });
    } catch {
      // The whole file follows; its errors are the ones reported.
    }
  }

  async function load(request: LoadRequest | StreamedLoadRequest): Promise<void> {
    if (disposed) throw new Error("The viewer has been disposed");
    const { fileName } = request;
    const token = ++loadCounter;
    const isCurrent = () => !disposed && token === loadCounter;
    const cancellation = () =>
      new LoadCancelledError(disposed ? "The viewer was disposed during loading" : "A newer model replaced this one");
    const fail = (error: unknown, fallback: string): Error => {
      const err = error instanceof LoadCancelledError ? error : toError(error, fallback);
      if (isCurrent() && !(err instanceof LoadCancelledError)) events.emit("error", err);
      return err;
    };

    const started = performance.now();
    firstFrameAt = null;
    readyAt = null;
    let previewedAt: number | null = null;
    let loaded: LoadedModel;
    let format;
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
                await showPreview(preview, fileName, isCurrent);
                if (model?.kind === "splat") previewedAt = interactions;
              },
            })
          : request.bytes;
      if (!isCurrent()) throw cancellation();
      if (!(bytes instanceof ArrayBuffer) || bytes.byteLength === 0) throw new Error(EMPTY_OR_CORRUPTED);
      format = detectModelFormat(new Uint8Array(bytes, 0, Math.min(bytes.byteLength, HEAD_BYTES)), fileName);
      if (!format) throw new Error(EMPTY_OR_CORRUPTED);
      const splat = isSplatFormat(format);
      const target = ensureRenderer(!splat);
      if (splat) {
        await ensureSpark(target);
        loaded = await loadSplat({
          bytes,
          format,
          fileName,
          timeoutMs: splatTimeoutMs,
          splatBudget,
          onProgress: (done, total) => {
            if (isCurrent()) events.emit("progress", { loaded: done, total });
          },
        });
      } else {
        gltfLoader ??= createGltfLoader(target, decoderPath);
        loaded = await loadGltf(gltfLoader.loader, bytes, format);
      }
    } catch (error) {
      throw fail(error, EMPTY_OR_CORRUPTED);
    }
    if (!isCurrent()) {
      loaded.dispose();
      throw cancellation();
    }

    try {
      presentModel(loaded, format, previewedAt !== null && previewedAt !== interactions);
      await waitForFirstDraw(loaded.kind);
      readyAt = performance.now();
    } catch (error) {
      throw fail(error, "The model could not be displayed");
    }
    if (!isCurrent()) throw cancellation();
    events.emit("ready", {
      format,
      loadMs: Math.round(performance.now() - started),
      ...(loaded.splatCount !== undefined ? { splatCount: loaded.splatCount } : {}),
    });
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
  const onBlur = () => fly.releaseKeys();
  // A click gives the canvas keyboard focus (OrbitControls cancels the pointer's default actions).
  const onPointerDown = () => canvas.focus({ preventScroll: true });
  canvas.addEventListener("keydown", onKeyDown);
  canvas.addEventListener("keyup", onKeyUp);
  canvas.addEventListener("blur", onBlur);
  canvas.addEventListener("pointerdown", onPointerDown);
  const detachFocusGesture = onDoubleActivate(canvas, (x, y) => {
    focusAt(x, y);
  });

  async function arSupport(): Promise<ArSupport> {
    if (model?.kind !== "mesh") return { webxr: false, quickLook: false };
    return detectArSupport();
  }

  async function viewInAr(): Promise<void> {
    if (!model || model.kind !== "mesh" || !renderer || !loop) throw new Error("Only 3D meshes (glTF) can be viewed in your space");
    const support = await detectArSupport();
    if (support.webxr) {
      const release = loop.hold();
      try {
        await runWebXrAr({ renderer, object: model.object });
      } finally {
        release();
        resize();
      }
      return;
    }
    if (support.quickLook) {
      openQuickLook(await exportUsdz(model.object));
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
      firstFrameAt,
      readyAt,
      navigationMode,
    };
  }
  const unregister = registerViewer(getStats);

  function dispose(): void {
    if (disposed) return;
    disposed = true;
    unregister();
    fly.dispose();
    detachFocusGesture();
    canvas.removeEventListener("keydown", onKeyDown);
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
    stage: { container, scene, camera, controls, model: () => model, requestRender },
    load,
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
    getStats,
    on: (event, listener) => events.on(event, listener),
    off: (event, listener) => events.off(event, listener),
  };
  return viewer;
}
