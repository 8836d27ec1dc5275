import type { ModelFormat } from "../lib/model-format";

export interface ViewerOptions {
  /** Element the canvas is appended to; the canvas fills it and follows its size. */
  container: HTMLElement;
  /** CSS colour of the background. Default "#1e1f22". */
  background?: string;
  /** Slowly orbit the model until the user interacts. Default false. */
  autorotate?: boolean;
  /** Upper bound for the device pixel ratio used for rendering. Default 2. */
  maxPixelRatio?: number;
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
  /** Give up on decoding a splat file after this many milliseconds. Default 60000. */
  splatTimeoutMs?: number;
}

export interface LoadRequest {
  bytes: ArrayBuffer;
  /** Only used as a tie-breaker for formats without magic bytes (.splat, .spz, .sog, .gltf). */
  fileName?: string;
}

export interface ViewerReadyEvent {
  format: ModelFormat;
  /** Milliseconds spent decoding the bytes and uploading them to the GPU. */
  loadMs: number;
  /** Number of gaussians for splat formats. */
  splatCount?: number;
}

export interface ViewerProgressEvent {
  /** Decoding progress of the current file; `total` is null when unknown. */
  loaded: number;
  total: number | null;
}

export interface ViewerEvents {
  ready: ViewerReadyEvent;
  error: Error;
  progress: ViewerProgressEvent;
}

export interface Viewer {
  readonly canvas: HTMLCanvasElement;
  /**
   * Shows the model in `bytes`, replacing the current one. Rejects with a readable Error for
   * empty, unrecognised, corrupt or truncated files, or when a newer load or dispose() supersedes it.
   */
  load(request: LoadRequest): Promise<void>;
  /** Re-reads the container size (also done automatically through a ResizeObserver). */
  resize(): void;
  /** Stops rendering, frees every GPU resource, removes the canvas and all listeners. Idempotent. */
  dispose(): void;
  /** Subscribes to an event; returns the unsubscribe function. */
  on<K extends keyof ViewerEvents>(event: K, listener: (payload: ViewerEvents[K]) => void): () => void;
  off<K extends keyof ViewerEvents>(event: K, listener: (payload: ViewerEvents[K]) => void): void;
}
