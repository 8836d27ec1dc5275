/** Public entry of the browser-only 3D viewer. Import lazily (`await import("../viewer")`): it pulls in three.js. */
export { createViewer, DEFAULT_BACKGROUND, DEFAULT_DECODER_PATH } from "./create-viewer";
export { downloadModel, fetchPublicFile, EMPTY_OR_CORRUPTED, type DownloadModelOptions } from "./download";
export { LoadCancelledError } from "./errors";
export type {
  LoadRequest,
  Viewer,
  ViewerEvents,
  ViewerOptions,
  ViewerProgressEvent,
  ViewerReadyEvent,
} from "./types";
