import type { Object3D, PerspectiveCamera, Scene } from "three";
import type { OrbitControls } from "three/addons/controls/OrbitControls.js";
import type { ModelFormat } from "../formats/model-format";
import type { ViewerBackground } from "./background";
import type { CameraView } from "./camera-view";
import type { ArFiles, ArSupport } from "./ar";
import type { Vec3 } from "./bounds";
import type { ModelDownload } from "./download";
import type { LoadedModel } from "./loaded-model";

export interface ViewerOptions {
  /** Element the canvas is appended to; the canvas fills it and follows its size. */
  container: HTMLElement;
  /** Behind the model: a CSS hex colour, a vertical gradient or an environment (background.ts). Default "#1e1f22". */
  background?: ViewerBackground;
  /** Slowly orbit the model until the user interacts. Default false. */
  autorotate?: boolean;
  /** How fast it orbits while autorotating: a multiple of the normal pace (one turn in about 40 s). Default 1. */
  autorotateSpeed?: number;
  /** Vertical field of view (degrees) the automatic framing uses; a saved opening view brings its own. Default 45. */
  fov?: number;
  /** Upper bound for the device pixel ratio used for rendering. Default: 2 on desktops, 1.5 on phones (device-profile.ts). */
  maxPixelRatio?: number;
  /**
   * Most splats drawn per frame; bigger splat models get a level-of-detail tree (built in Spark's
   * worker) and are drawn within the budget. Default: 3M on desktops, 1M on phones (device-profile.ts).
   */
  splatBudget?: number;
  /** Element that fullscreen (the F key, toggleFullscreen()) applies to. Default: `container`. */
  fullscreenElement?: HTMLElement;
  /**
   * Base URL of three's decoder files, with a trailing slash. DRACO decoders are read from
   * `${decoderPath}draco/`, the KTX2 (Basis) transcoder from `${decoderPath}basis/`.
   * Default "/viewer-libs/".
   */
  decoderPath?: string;
  /**
   * Direction from the model's centre towards the initial camera position, in the viewer's
   * y-up world (need not be normalised). Default: a view from the front (+Z), slightly above.
   */
  viewDirection?: [number, number, number];
  /** Opening view (the item's viewer settings); replaces the automatic framing's camera position after each load. */
  initialCamera?: CameraView;
  /** Give up on decoding a splat file after this many milliseconds. Default 60000. */
  splatTimeoutMs?: number;
}

export interface LoadRequest {
  bytes: ArrayBuffer;
  /** Only used as a tie-breaker for formats without magic bytes (.splat, .spz, .sog, .gltf). */
  fileName?: string;
}

/**
 * Loading while the bytes still arrive (startModelDownload in download.ts): the format is known from
 * the first bytes, and a plain .ply or .splat shows its first splats before the download ends.
 */
export interface StreamedLoadRequest {
  download: ModelDownload;
  fileName?: string;
  /**
   * The same splat's coarse level (about a tenth of its splats, the item's `model_coarse_url`): shown first
   * when it is decoded before the whole model, then replaced by it.
   */
  coarse?: ModelDownload;
}

/** A rotation as a unit quaternion: x, y, z, w. */
export type Quat = [number, number, number, number];

/** Where one part of a scene sits, relative to the scene's origin (scale is per axis, each > 0). */
export interface PartTransform {
  position: Vec3;
  quaternion: Quat;
  scale: Vec3;
}

/** One model of a scene (loadScene, addPart). */
export interface ScenePartRequest {
  /** Unique within the scene; names the part in stage.parts(), pickPart(), removePart() and "part-error". */
  id: string;
  /**
   * The part's bytes as they arrive. A factory is called only when a download slot is free: the
   * viewer starts at most 3 part downloads at once (a download handed over as an object is already running).
   */
  download: ModelDownload | (() => ModelDownload);
  /** Only used as a tie-breaker for formats without magic bytes (.splat, .spz, .sog, .gltf). */
  fileName?: string;
  transform: PartTransform;
  /** For messages ("part-error" listeners show it). */
  name?: string;
}

/** Several models shown together, each with its own transform (the Builder's scenes). */
export interface SceneLoadRequest {
  parts: ScenePartRequest[];
}

/** A part of a scene that could not be shown; the other parts still are. */
export interface ViewerPartErrorEvent {
  id: string;
  error: Error;
}

/** "orbit": drag to turn around the model, right-drag or two fingers to pan, wheel or pinch to zoom. "fly": drag to look, W A S D to move. */
export type NavigationMode = "orbit" | "fly";

/** Counters of one viewer (also on the window hook of diagnostics.ts). */
export interface ViewerStats {
  format: ModelFormat | null;
  /** Frames drawn since the viewer was created. */
  frames: number;
  /** Live GPU objects (three's renderer.info.memory) and compiled shader programs. */
  geometries: number;
  textures: number;
  programs: number;
  /** Splats in the model on show (0 for meshes). */
  splats: number;
  /** Splats Spark drew in the last frame (its sorted, active splats; 0 for meshes). */
  drawnSplats: number;
  /** performance.now() when the current load's first frame (a preview's, or the model's) was on the canvas, or null. */
  firstFrameAt: number | null;
  /** performance.now() when the whole model was on the canvas ("ready"), or null. */
  readyAt: number | null;
  navigationMode: NavigationMode;
  /** Where the camera is and looks. */
  view: CameraView;
}

export interface ViewerPreviewEvent {
  format: ModelFormat;
  /** What is shown: the splats of the download's first bytes, or the model's coarse level. */
  from: "prefix" | "coarse";
  /** Splats shown so far, and the bytes of the whole file received when they were shown. */
  splatCount: number;
  loaded: number;
  total: number | null;
}

export interface ViewerReadyEvent {
  format: ModelFormat;
  /** Milliseconds spent decoding the bytes and uploading them to the GPU. */
  loadMs: number;
  /** Number of gaussians for splat formats (for a scene: of all its splat parts). */
  splatCount?: number;
  /** For a scene (loadScene): the parts shown. `format` is then the first shown part's. */
  parts?: number;
}

export interface ViewerProgressEvent {
  /**
   * load(): decoding progress of the current splat file. loadScene(): bytes downloaded over all
   * parts. `total` is null when unknown (for a scene: until every part's size is known).
   */
  loaded: number;
  total: number | null;
}

export interface ViewerEvents {
  ready: ViewerReadyEvent;
  error: Error;
  progress: ViewerProgressEvent;
  /** A frame was drawn (after camera moves, resizes, model changes): add-ons re-project overlays. */
  render: undefined;
  /** The first splats (or the coarse level) are on screen while the whole model still comes (StreamedLoadRequest). */
  preview: ViewerPreviewEvent;
  /** The navigation mode changed (M key, Escape, setNavigationMode, a focus double-click). */
  navigation: NavigationMode;
  /** A part of a scene failed to download or decode (loadScene); the others are still shown. */
  "part-error": ViewerPartErrorEvent;
  /** The parts on show changed (a load, loadScene, addPart, removePart): the ids now shown, in order. */
  parts: string[];
}

/**
 * The live three.js objects, for add-ons built on the viewer (surface picking, hotspots, the
 * measuring tool: app/viewer/picking.ts, hotspots.ts, measure.ts).
 */
export interface ViewerStage {
  /** The element the canvas was appended to; add-ons put their overlays in it. */
  container: HTMLElement;
  scene: Scene;
  camera: PerspectiveCamera;
  controls: OrbitControls;
  /** The model on show (for a scene, the composite of its parts), or null until the first load has succeeded. */
  model(): LoadedModel | null;
  /**
   * The transform group of each part of the scene on show, by id (empty for a single model). Moving
   * a group moves its part; call requestRender() after.
   */
  parts(): ReadonlyMap<string, Object3D>;
  /** Asks for a frame, after an add-on moved the camera or changed the scene. */
  requestRender(): void;
}

export interface Viewer {
  readonly canvas: HTMLCanvasElement;
  /** For add-ons (see ViewerStage). */
  readonly stage: ViewerStage;
  /**
   * Shows the model in `bytes`, replacing the current one. Rejects with a readable Error for
   * empty, unrecognised, corrupt or truncated files, or when a newer load or dispose() supersedes it.
   */
  load(request: LoadRequest | StreamedLoadRequest): Promise<void>;
  /**
   * Shows several models together, replacing the current model: each part is downloaded (at most 3
   * at once), decoded like load() does and placed by its transform. A part that fails is reported
   * through "part-error" and left out; rejects with a readable Error when `parts` is empty or every
   * part failed, or when a newer load or dispose() supersedes it.
   */
  loadScene(request: SceneLoadRequest): Promise<void>;
  /**
   * Adds one part to the scene on show without reloading the others (the camera stays). With no
   * scene on show, starts one with this part. Rejects with a readable Error when the part cannot be
   * shown (no "part-error" then) or its id is already in the scene.
   */
  addPart(part: ScenePartRequest): Promise<void>;
  /** Takes a part out of the scene on show and frees it; false when there is no such part. */
  removePart(id: string): boolean;
  /** Shows another background at once; an environment also lights a mesh on show (null: the default colour). */
  setBackground(background: ViewerBackground | null): void;
  /** Changes the live camera's vertical field of view (degrees) at once. */
  setFieldOfView(fov: number): void;
  /** Starts or stops turning around the model, at a multiple of the normal pace (default: the one it was made with). */
  setAutorotate(on: boolean, speed?: number): void;
  /** Back to the opening view (the framing, or the item's saved camera); leaves fly mode. */
  resetView(): void;
  readonly navigationMode: NavigationMode;
  setNavigationMode(mode: NavigationMode): void;
  /** Turns around the surface point under these page coordinates (what a double-click or double-tap does); false on empty space. */
  focusAt(clientX: number, clientY: number): boolean;
  /** Fullscreen for `fullscreenElement` (pseudo-fullscreen where the browser has none); resolves with the new state. */
  toggleFullscreen(): Promise<boolean>;
  /** The "View in your space" routes this browser offers for the model on show (none for a splat without an AR model). */
  arSupport(): Promise<ArSupport>;
  /** Whether the model on show could be placed in AR on a phone that offers it (a mesh, or a splat with an AR model). */
  canPlaceInAr(): boolean;
  /**
   * A glTF model to place in AR while a splat is on show (a scan's light textured mesh): `load` answers its
   * bytes and is called on the first `viewInAr()`; null removes it. A mesh on show is placed itself.
   */
  setArModel(load: (() => Promise<ArrayBuffer>) | null): void;
  /** The server's AR files of the model (USDZ for AR Quick Look, GLB for Scene Viewer); null: none. */
  setArFiles(files: ArFiles | null): void;
  /** Opens the model on show in AR: WebXR where supported, else AR Quick Look or Scene Viewer. Rejects when none is available. */
  viewInAr(): Promise<void>;
  getStats(): ViewerStats;
  /** Re-reads the container size (also done automatically through a ResizeObserver). */
  resize(): void;
  /** Stops rendering, frees every GPU resource, removes the canvas and all listeners. Idempotent. */
  dispose(): void;
  /** Subscribes to an event; returns the unsubscribe function. */
  on<K extends keyof ViewerEvents>(event: K, listener: (payload: ViewerEvents[K]) => void): () => void;
  off<K extends keyof ViewerEvents>(event: K, listener: (payload: ViewerEvents[K]) => void): void;
}
