/** Public entry of the browser-only 3D viewer. Import lazily (`await import("../viewer")`): it pulls in three.js. */
export { createViewer, DEFAULT_BACKGROUND, DEFAULT_DECODER_PATH } from "./create-viewer";
/** Starts loading the splat renderer (Spark and its WASM) before a splat is known to come; failures are reported by the load. */
export { loadSpark as preloadSplatRenderer } from "./load-splat";
export { decodeEarly } from "./early-decode";
export { downloadModel, fetchPublicFile, startModelDownload, EMPTY_OR_CORRUPTED, type DownloadModelOptions, type ModelDownload } from "./download";
export { isFullscreen, onFullscreenChange, toggleFullscreen } from "./fullscreen";
export { viewerDiagnostics, type ViewerDiagnostics } from "./diagnostics";
export type { ArFiles, ArSupport } from "./ar";
export { LoadCancelledError } from "./errors";
export { EMPTY_SCENE } from "./scene-request";
export type {
  LoadRequest,
  NavigationMode,
  PartTransform,
  Quat,
  SceneLoadRequest,
  ScenePartRequest,
  StreamedLoadRequest,
  Viewer,
  ViewerEvents,
  ViewerOptions,
  ViewerPreviewEvent,
  ViewerProgressEvent,
  ViewerReadyEvent,
  ViewerPartErrorEvent,
  ViewerStats,
  ViewerStage,
} from "./types";
export { getCameraView, setCameraView, type CameraView } from "./camera-view";
