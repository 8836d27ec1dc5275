/**
 * The viewer's core: the canvas, scene, camera and orbit controls, the renderer (made by the first load), the
 * on-demand render loop and the wait for a new model's first frame, resizing, a lost WebGL context, lighting,
 * Spark's lifecycle, and freeing it all. It makes the ViewerContext the other parts share (viewer-context.ts).
 */
import {
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
import { backgroundCss, DEFAULT_BACKGROUND, sameBackground, type ViewerBackground } from "./background";
import { createBackdrop, type Backdrop } from "./backdrop";
import { VIEWER_FOV } from "./camera-fit";
import { DEFAULT_DECODER_PATH } from "./decoder-path";
import { detectDeviceProfile, environmentMapSize, rendererName } from "./device-profile";
import { Emitter } from "./emitter";
import { toError } from "./errors";
import { waitForGpu } from "./gpu-fence";
import { createSparkRenderer, DEFAULT_SPLAT_TIMEOUT_MS, splatsDrawnOf, whenSparkIdle, type SparkHandle } from "./load-splat";
import { markLoad } from "./load-marks";
import type { LoadedModel } from "./loaded-model";
import { startRenderLoop } from "./render-loop";
import type { ViewerEvents, ViewerOptions } from "./types";
import type { ViewerContext, ViewerSettings } from "./viewer-context";

/** Longest wait for a decoded splat to be sorted and drawn before "ready" fires anyway. */
const SPLAT_FIRST_DRAW_TIMEOUT_MS = 5_000;

export interface ViewerCore {
  readonly context: ViewerContext;
  /** Frames drawn since the viewer was created. */
  readonly frames: number;
  /** Splats Spark drew in the last frame. */
  readonly drawnSplats: number;
  /** Shows another background at once (an owner previewing the viewer settings); an environment relights a mesh. */
  setBackground(background: ViewerBackground | null): void;
  /** Another vertical field of view (degrees) for the camera on show, at once. */
  setFieldOfView(fov: number): void;
  /** Starts or stops turning, at a multiple of the normal pace. */
  setAutorotate(on: boolean, speed?: number): void;
  /**
   * Last step of the viewer's dispose(): stops rendering, frees the model on show and every GPU resource,
   * removes the canvas and the core's listeners and event subscribers.
   */
  dispose(): void;
}

export function createViewerCore(options: ViewerOptions): ViewerCore {
  const device = detectDeviceProfile();
  const {
    container,
    background = DEFAULT_BACKGROUND,
    autorotate = false,
    autorotateSpeed = 1,
    fov = VIEWER_FOV,
    maxPixelRatio = device.maxPixelRatio,
    splatBudget = device.splatBudget,
    fullscreenElement = container,
    decoderPath = DEFAULT_DECODER_PATH,
    splatTimeoutMs = DEFAULT_SPLAT_TIMEOUT_MS,
    viewDirection,
    initialCamera,
  } = options;
  const settings: ViewerSettings = { container, background, autorotate, autorotateSpeed, fov, maxPixelRatio, splatBudget, fullscreenElement, decoderPath, splatTimeoutMs, viewDirection, initialCamera };

  const events = new Emitter<ViewerEvents>();
  const canvas = document.createElement("canvas");
  canvas.style.display = "block";
  canvas.style.width = "100%";
  canvas.style.height = "100%";
  canvas.style.outline = "none";
  canvas.style.background = backgroundCss(background); // until the first frame is drawn
  canvas.tabIndex = 0;
  container.appendChild(canvas);

  const scene = new Scene();
  let backdrop: Backdrop = createBackdrop(background);
  scene.background = backdrop.background;
  const camera = new PerspectiveCamera(fov, 1, 0.01, 1000);
  camera.position.set(0, 0, 3);
  scene.add(camera);
  const controls = new OrbitControls(camera, canvas);
  controls.enableDamping = true;
  controls.dampingFactor = 0.08;
  controls.screenSpacePanning = true;
  controls.autoRotate = autorotate;
  controls.autoRotateSpeed = 1.5 * autorotateSpeed;
  const stopAutorotate = () => {
    controls.autoRotate = false;
  };
  controls.addEventListener("start", stopAutorotate);

  let environment: Texture | null = null;
  let keyLight: DirectionalLight | null = null;
  let spark: SparkHandle | null = null;
  let needsRender = true;
  let frames = 0;
  /** The model on show at the last render, and how many of its splats Spark drew (0 before its first sort). */
  let lastDrawn: { model: LoadedModel | null; splats: number } = { model: null, splats: 0 };

  const context: ViewerContext = {
    settings,
    events,
    canvas,
    scene,
    camera,
    controls,
    disposed: false,
    renderer: null,
    loop: null,
    gltfLoader: null,
    model: null,
    modelFormat: null,
    swapping: false,
    interactions: 0,
    firstFrameAt: null,
    readyAt: null,
    fly: null,
    requestRender,
    resize,
    ensureRenderer,
    ensureSpark,
    applyLighting,
    waitForFirstDraw,
  };

  const onContextLost = (event: Event) => {
    event.preventDefault();
    if (!context.disposed) events.emit("error", new Error("The graphics context was lost; reload the page to view the model"));
  };
  canvas.addEventListener("webglcontextlost", onContextLost);

  function pixelRatio(): number {
    const dpr = typeof window === "undefined" ? 1 : window.devicePixelRatio || 1;
    return Math.max(0.5, Math.min(dpr, maxPixelRatio));
  }

  function resize(): void {
    if (context.disposed) return;
    const width = Math.max(1, Math.floor(container.clientWidth));
    const height = Math.max(1, Math.floor(container.clientHeight));
    camera.aspect = width / height;
    camera.updateProjectionMatrix();
    if (context.renderer) {
      context.renderer.setPixelRatio(pixelRatio());
      context.renderer.setSize(width, height, false);
      needsRender = true;
    }
  }

  const resizeObserver = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(() => resize());
  resizeObserver?.observe(container);
  resize();

  // Rendering is on demand: only when the camera moved (input, damping, autorotate), the canvas
  // was resized, a model changed, or Spark finished re-sorting splats. An idle viewer costs nothing.
  function requestRender(): void {
    needsRender = true;
  }
  controls.addEventListener("change", requestRender);

  function renderNow(): void {
    const { renderer } = context;
    if (!renderer) return;
    needsRender = false;
    renderer.render(scene, camera);
    const { model } = context;
    lastDrawn = { model, splats: spark && model ? splatsDrawnOf(spark, model.object) : 0 };
    frames++;
    events.emit("render", undefined);
  }

  function renderFrame(deltaSeconds: number): void {
    if (!context.renderer) return;
    const { fly } = context;
    // In fly mode the orbit controls must not turn the camera back towards their target. While a partial model
    // is swapped for the whole one the camera waits (see ViewerContext.swapping).
    const moved = context.swapping ? false : fly?.active ? fly.update(deltaSeconds) : controls.update(deltaSeconds);
    // Until a model is on show a turning camera changes nothing on screen: no frame, so the decoder (a worker)
    // does not share the CPU with empty frames at 60 fps — with a software rasteriser they cost seconds (issue 20).
    if ((moved && context.model !== null) || needsRender || spark?.dirty) renderNow();
  }

  function ensureRenderer(antialias: boolean): WebGLRenderer {
    if (context.renderer) return context.renderer;
    let created: WebGLRenderer;
    try {
      created = new WebGLRenderer({ canvas, antialias, powerPreference: "high-performance" });
    } catch (error) {
      throw toError(error, "WebGL is not available in this browser");
    }
    created.setClearColor(backdrop.clearColor, 1);
    context.renderer = created;
    resize();
    context.loop = startRenderLoop(created, renderFrame);
    return created;
  }

  function ensureMeshLighting(target: WebGLRenderer): void {
    if (!environment) {
      const pmrem = new PMREMGenerator(target);
      const picture = backdrop.environmentPicture;
      if (picture) {
        // An environment background lights the mesh as well (decision 053).
        environment = pmrem.fromEquirectangular(picture()).texture;
      } else {
        const room = new RoomEnvironment();
        const size = environmentMapSize(rendererName(target.getContext()));
        environment = pmrem.fromScene(room, 0.04, 0.1, 100, { size }).texture;
        room.dispose();
      }
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
    if (context.disposed) {
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

  function setBackground(next: ViewerBackground | null): void {
    if (context.disposed || sameBackground(next ?? DEFAULT_BACKGROUND, settings.background)) return;
    const previous = backdrop;
    const lit = environment !== null && (previous.environmentPicture !== null || createsEnvironment(next));
    settings.background = next ?? DEFAULT_BACKGROUND;
    backdrop = createBackdrop(next);
    scene.background = backdrop.background;
    canvas.style.background = backgroundCss(next);
    context.renderer?.setClearColor(backdrop.clearColor, 1);
    if (lit) {
      // The mesh's lighting came from (or must now come from) the environment: made again from the new backdrop.
      environment?.dispose();
      environment = null;
      if (context.renderer && scene.environment) ensureMeshLighting(context.renderer);
    }
    previous.dispose();
    needsRender = true;
  }

  function setFieldOfView(fov: number): void {
    if (context.disposed || !(fov > 0 && fov < 180)) return;
    camera.fov = fov;
    camera.updateProjectionMatrix();
    needsRender = true;
  }

  function setAutorotate(on: boolean, speed = settings.autorotateSpeed): void {
    if (context.disposed) return;
    controls.autoRotate = on;
    controls.autoRotateSpeed = 1.5 * speed;
    needsRender = true;
  }

  /** Resolves after the next frame (or ~16 ms when the loop is paused, rendering by hand if needed). */
  async function tick(): Promise<void> {
    if (context.loop?.running) return context.loop.nextFrame();
    if (needsRender || spark?.dirty) renderNow();
    await new Promise((resolve) => setTimeout(resolve, 16));
  }

  /**
   * Resolves once the new model has been drawn. Spark sorts splats in a worker after the first
   * render, so for splats this waits (bounded) until the sorted splats reached the canvas.
   */
  async function waitForFirstDraw(kind: LoadedModel["kind"]): Promise<void> {
    if (!context.renderer) return;
    markLoad("presented");
    renderNow(); // synchronous: compiles shaders and surfaces GPU errors inside load()
    if (kind !== "mesh" && spark) {
      const shown = context.model;
      const deadline = performance.now() + SPLAT_FIRST_DRAW_TIMEOUT_MS;
      let drawn = false;
      while (!context.disposed && spark && performance.now() < deadline) {
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
      if (!drawn && !context.disposed && context.renderer) renderNow(); // draws the sorted splats
    }
    if (context.disposed || !context.renderer) return;
    if (needsRender) renderNow();
    waitForGpu(context.renderer.getContext()); // gpu-fence.ts: finish(), not a polled fence (issue 20)
    if (context.firstFrameAt === null) markLoad("first-frame");
    context.firstFrameAt ??= performance.now();
    if (!context.disposed && context.loop?.running) await context.loop.nextFrame();
  }

  function dispose(): void {
    context.loop?.dispose();
    resizeObserver?.disconnect();
    canvas.removeEventListener("webglcontextlost", onContextLost);
    controls.removeEventListener("start", stopAutorotate);
    controls.removeEventListener("change", requestRender);
    controls.dispose();
    const { model } = context;
    if (model) {
      scene.remove(model.object);
      model.dispose();
      context.model = null;
    }
    keyLight?.dispose();
    environment?.dispose();
    backdrop.dispose();
    context.gltfLoader?.dispose();
    scene.environment = null;
    scene.background = null;
    canvas.remove();
    events.clear();
    // The WebGL context goes last, after Spark has finished a sort it may have in flight.
    const finalRenderer = context.renderer;
    context.renderer = null;
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
    context,
    get frames() {
      return frames;
    },
    get drawnSplats() {
      return lastDrawn.splats;
    },
    setBackground,
    setFieldOfView,
    setAutorotate,
    dispose,
  };
}

function createsEnvironment(background: ViewerBackground | null): boolean {
  return !!background && typeof background === "object" && background.type === "environment";
}
