/**
 * The framework-free three.js viewer: one canvas, one scene, one model (or one scene of several
 * models: loadScene) at a time.
 * Lifecycle: createViewer() → load() / loadScene() (any number of times) → dispose().
 *
 * Made of parts that share one ViewerContext (viewer-context.ts): the core (viewer-core.ts: renderer, render
 * loop, resize, lighting, Spark), loading a model (model-loading.ts), scenes and their parts (scene-parts.ts),
 * input (viewer-input.ts) and AR (ar-controller.ts). This file wires them into the Viewer.
 */
import type { Object3D } from "three";
import { createArController } from "./ar-controller";
import { DEFAULT_BACKGROUND } from "./background";
import { getCameraView } from "./camera-view";
import { DEFAULT_DECODER_PATH } from "./decoder-path";
import { registerViewer } from "./diagnostics";
import { toggleFullscreen as toggleElementFullscreen } from "./fullscreen";
import { createModelLoading } from "./model-loading";
import { isSceneModel } from "./scene-model";
import { createSceneParts } from "./scene-parts";
import type { Viewer, ViewerOptions, ViewerStats } from "./types";
import { createViewerCore } from "./viewer-core";
import { createViewerInput } from "./viewer-input";

export { DEFAULT_BACKGROUND };
export { DEFAULT_DECODER_PATH };
const NO_PARTS: ReadonlyMap<string, Object3D> = new Map<string, Object3D>();

export function createViewer(options: ViewerOptions): Viewer {
  const core = createViewerCore(options);
  const { context } = core;
  const { settings, events, canvas, scene, camera, controls } = context;
  const loading = createModelLoading(context);
  const sceneParts = createSceneParts(context, loading);
  const input = createViewerInput(context, () => viewer);
  const ar = createArController(context);

  function getStats(): ViewerStats {
    const info = context.renderer?.info;
    return {
      format: context.modelFormat,
      frames: core.frames,
      geometries: info?.memory.geometries ?? 0,
      textures: info?.memory.textures ?? 0,
      programs: info?.programs?.length ?? 0,
      splats: context.model?.splatCount ?? 0,
      drawnSplats: core.drawnSplats,
      firstFrameAt: context.firstFrameAt,
      readyAt: context.readyAt,
      navigationMode: input.navigationMode,
      view: getCameraView({ camera, controls }),
    };
  }
  const unregister = registerViewer(getStats);

  function dispose(): void {
    if (context.disposed) return;
    context.disposed = true;
    loading.cancel();
    sceneParts.cancel();
    unregister();
    input.dispose();
    ar.dispose();
    core.dispose(); // the WebGL context last
  }

  const viewer: Viewer = {
    canvas,
    stage: {
      container: settings.container,
      scene,
      camera,
      controls,
      model: () => context.model,
      parts: () => (isSceneModel(context.model) ? context.model.groups : NO_PARTS),
      requestRender: context.requestRender,
    },
    load: loading.load,
    loadScene: sceneParts.loadScene,
    addPart: sceneParts.addPart,
    removePart: sceneParts.removePart,
    resize: context.resize,
    dispose,
    setBackground: core.setBackground,
    setFieldOfView: core.setFieldOfView,
    setAutorotate: core.setAutorotate,
    resetView: input.resetView,
    get navigationMode() {
      return input.navigationMode;
    },
    setNavigationMode: input.setNavigationMode,
    focusAt: input.focusAt,
    toggleFullscreen: () => toggleElementFullscreen(settings.fullscreenElement),
    arSupport: ar.arSupport,
    canPlaceInAr: ar.canPlaceInAr,
    viewInAr: ar.viewInAr,
    setArModel: ar.setArModel,
    setArFiles: ar.setArFiles,
    getStats,
    on: (event, listener) => events.on(event, listener),
    off: (event, listener) => events.off(event, listener),
  };
  return viewer;
}
