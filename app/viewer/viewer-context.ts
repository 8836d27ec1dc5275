/**
 * What the viewer's parts share (create-viewer.ts wires them): the three.js objects, the events, the model on
 * show and the core's services. The parts read the fields live; the comment on each names who writes it.
 */
import type { PerspectiveCamera, Scene, WebGLRenderer } from "three";
import type { OrbitControls } from "three/addons/controls/OrbitControls.js";
import type { ModelFormat } from "../formats/model-format";
import type { Emitter } from "./emitter";
import type { FlyNavigation } from "./fly-navigation";
import type { GltfLoaderHandle } from "./load-gltf";
import type { LoadedModel } from "./loaded-model";
import type { RenderLoop } from "./render-loop";
import type { ViewerEvents, ViewerOptions } from "./types";

/** ViewerOptions with their defaults filled in (the device profile's for the pixel ratio and the splat budget). */
export type ViewerSettings = Required<Omit<ViewerOptions, "viewDirection" | "initialCamera">> & Pick<ViewerOptions, "viewDirection" | "initialCamera">;

export interface ViewerContext {
  readonly settings: ViewerSettings;
  readonly events: Emitter<ViewerEvents>;
  readonly canvas: HTMLCanvasElement;
  readonly scene: Scene;
  readonly camera: PerspectiveCamera;
  readonly controls: OrbitControls;
  /** Set once by dispose() (create-viewer.ts). */
  disposed: boolean;
  /**
   * Created by the first load() (ensureRenderer): a canvas's WebGL attributes are fixed on first use, and
   * meshes want MSAA while splats are faster without it.
   */
  renderer: WebGLRenderer | null;
  loop: RenderLoop | null;
  /** GLTFLoader and its decoders, made with the first mesh (model-loading.ts) or AR model (ar-controller.ts). */
  gltfLoader: GltfLoaderHandle | null;
  /** The model on show (model-loading.ts puts it on show; scene-parts.ts adds parts to a scene and takes them out). */
  model: LoadedModel | null;
  /** The format of the model on show (for a scene: its first part's), for getStats(). */
  modelFormat: ModelFormat | null;
  /**
   * Set while a partial model is swapped for the whole one (model-loading.ts). Spark takes a new set of splats
   * only between two sorts, and a turning camera (autorotate) starts the next sort of the old set as soon as one
   * ends: the coarse level stayed on screen for 4 s after the whole guitar was in the scene (viewer bench, issue
   * 20). A still camera for those few frames lets the whole model's first sort in.
   */
  swapping: boolean;
  /** Counts user moves of the camera (viewer-input.ts), to keep their view when a preview is replaced by the full model. */
  interactions: number;
  /** performance.now() of the current load's first frame (waitForFirstDraw) and of its "ready" (model-loading.ts, scene-parts.ts), or null. */
  firstFrameAt: number | null;
  readyAt: number | null;
  /** Fly navigation (set by viewer-input.ts): while active it moves the camera instead of the orbit controls. */
  fly: Pick<FlyNavigation, "active" | "update"> | null;
  /** Asks for a frame (rendering is on demand: viewer-core.ts). */
  requestRender(): void;
  /** Re-reads the container size. */
  resize(): void;
  /** The renderer, made on first use with or without MSAA. */
  ensureRenderer(antialias: boolean): WebGLRenderer;
  /** Puts Spark (the splat renderer) in the scene unless it is there already. */
  ensureSpark(target: WebGLRenderer): Promise<void>;
  /** Lighting and tone mapping for a model of this kind (Spark goes when no splat is left). */
  applyLighting(kind: LoadedModel["kind"], target: WebGLRenderer): void;
  /** Resolves once the model just put on show has been drawn (splats: sorted and drawn, bounded). */
  waitForFirstDraw(kind: LoadedModel["kind"]): Promise<void>;
}
