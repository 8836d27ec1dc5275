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
  WebGLRenderer,
  type Texture,
} from "three";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";
import { RoomEnvironment } from "three/addons/environments/RoomEnvironment.js";
import { detectModelFormat } from "../lib/model-format";
import { Emitter } from "./emitter";
import { EMPTY_OR_CORRUPTED, LoadCancelledError, toError } from "./errors";
import { viewDirectionFor } from "./camera-fit";
import { frameCamera } from "./frame-camera";
import { waitForGpu } from "./gpu-fence";
import { createGltfLoader, loadGltf, type GltfLoaderHandle } from "./load-gltf";
import { createSparkRenderer, isSplatFormat, loadSplat, whenSparkIdle, type SparkHandle } from "./load-splat";
import type { LoadedModel } from "./loaded-model";
import { startRenderLoop, type RenderLoop } from "./render-loop";
import type { LoadRequest, Viewer, ViewerEvents, ViewerOptions } from "./types";

export const DEFAULT_BACKGROUND = "#1e1f22";
export const DEFAULT_DECODER_PATH = "/viewer-libs/";
const DEFAULT_SPLAT_TIMEOUT_MS = 60_000;
/** Bytes handed to format detection (enough for a .ksplat header and any PLY header). */
const HEAD_BYTES = 64 * 1024;
/** Longest wait for a decoded splat to be sorted and drawn before "ready" fires anyway. */
const SPLAT_FIRST_DRAW_TIMEOUT_MS = 5_000;

export function createViewer(options: ViewerOptions): Viewer {
  const {
    container,
    background = DEFAULT_BACKGROUND,
    autorotate = false,
    maxPixelRatio = 2,
    decoderPath = DEFAULT_DECODER_PATH,
    splatTimeoutMs = DEFAULT_SPLAT_TIMEOUT_MS,
    viewDirection,
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
  }

  function renderFrame(deltaSeconds: number): void {
    if (!renderer) return;
    const moved = controls.update(deltaSeconds);
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
    const created = await createSparkRenderer(target);
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
  }

  async function load({ bytes, fileName }: LoadRequest): Promise<void> {
    if (disposed) throw new Error("The viewer has been disposed");
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
    let loaded: LoadedModel;
    let format;
    try {
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
      const target = ensureRenderer(loaded.kind === "mesh");
      if (loaded.kind === "mesh") {
        void retireSpark(); // no splats left to draw
        ensureMeshLighting(target);
        target.toneMapping = NeutralToneMapping;
      } else {
        scene.environment = null;
        if (keyLight) keyLight.visible = false;
        target.toneMapping = NoToneMapping; // splat colours are already display-referred
      }
      replaceModel(loaded);
      frameCamera(camera, controls, loaded.bounds, viewDirection ?? viewDirectionFor(loaded.kind));
      await waitForFirstDraw(loaded.kind);
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

  function dispose(): void {
    if (disposed) return;
    disposed = true;
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

  return {
    canvas,
    load,
    resize,
    dispose,
    on: (event, listener) => events.on(event, listener),
    off: (event, listener) => events.off(event, listener),
  };
}
