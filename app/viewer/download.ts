/**
 * Downloading model bytes for the viewer: authenticated, streamed with progress, optionally
 * XOR-decoded on the fly (SPEC §7). Free of three.js so the page can start the download while
 * the viewer bundle is still loading.
 */
import { xorInPlace } from "../lib/xor";

export const EMPTY_OR_CORRUPTED = "Downloaded file is empty or corrupted";

export interface DownloadModelOptions {
  url: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string | null;
  /** When set, every byte is XOR-decoded with this repeating key. */
  xorKey?: Uint8Array | null;
  /** Called after every chunk; `total` is null when the server sent no usable Content-Length. */
  onProgress?: (loaded: number, total: number | null) => void;
  signal?: AbortSignal;
}

function contentLength(response: Response): number | null {
  const header = response.headers.get("Content-Length");
  if (header === null) return null;
  const value = Number(header);
  // Compressed transfers report the encoded length, which no longer matches the bytes we read.
  const encoded = response.headers.get("Content-Encoding");
  if (encoded && encoded !== "identity") return null;
  return Number.isFinite(value) && value > 0 ? value : null;
}

async function readBodyText(response: Response): Promise<string> {
  try {
    return await response.text();
  } catch {
    return "";
  }
}

/**
 * A model download in progress. The viewer can look at the bytes received so far (format
 * detection, first splats before the download ends) while it runs.
 */
export interface ModelDownload {
  /** The whole file, once received (rejects on HTTP errors, empty bodies and aborts). */
  readonly done: Promise<ArrayBuffer>;
  /** Bytes received so far. */
  readonly loaded: number;
  /** The announced size, or null until the response arrived or when the server sent none. */
  readonly total: number | null;
  /**
   * The bytes received so far, as a view of the download's own buffer (do not modify), when the
   * size is known; null otherwise.
   */
  received(): Uint8Array | null;
  /** Calls `listener` after each chunk; returns the unsubscribe function. */
  onData(listener: () => void): () => void;
}

/** Starts downloading a model; the bytes arrive through the returned handle (see ModelDownload). */
export function startModelDownload({ url, token, xorKey, onProgress, signal }: DownloadModelOptions): ModelDownload {
  const listeners = new Set<() => void>();
  let loaded = 0;
  let total: number | null = null;
  let target: Uint8Array<ArrayBuffer> | null = null;
  const notify = () => {
    for (const listener of [...listeners]) listener();
  };

  const done = (async (): Promise<ArrayBuffer> => {
    const headers: Record<string, string> = {};
    if (token) headers.Authorization = `Bearer ${token}`;
    const response = await fetch(url, { headers, signal });
    if (!response.ok) {
      throw new Error(`Failed to download file: ${response.status} - ${await readBodyText(response)}`);
    }
    if (!response.body) throw new Error("Response body is null");

    total = contentLength(response);
    const reader = response.body.getReader();
    const key = xorKey && xorKey.length > 0 ? xorKey : null;
    // With a known length we fill one buffer; otherwise we collect chunks and join them at the end.
    target = total !== null ? new Uint8Array(total) : null;
    const chunks: Uint8Array[] = [];
    onProgress?.(0, total);
    try {
      for (;;) {
        const { done: finished, value } = await reader.read();
        if (finished) break;
        if (!value || value.length === 0) continue;
        if (key) xorInPlace(value, key, loaded);
        if (target && loaded + value.length <= target.length) {
          target.set(value, loaded);
        } else {
          if (target) {
            // The server sent more than it announced: fall back to collecting chunks.
            chunks.push(target.subarray(0, loaded));
            target = null;
          }
          chunks.push(value);
        }
        loaded += value.length;
        onProgress?.(loaded, total);
        notify();
      }
    } finally {
      reader.releaseLock();
    }

    if (loaded === 0) throw new Error(EMPTY_OR_CORRUPTED);
    if (target) {
      return loaded === target.length ? target.buffer : target.slice(0, loaded).buffer;
    }
    const joined = new Uint8Array(loaded);
    let offset = 0;
    for (const chunk of chunks) {
      joined.set(chunk, offset);
      offset += chunk.length;
    }
    return joined.buffer;
  })();
  done.finally(() => listeners.clear()).catch(() => undefined);

  return {
    done,
    get loaded() {
      return loaded;
    },
    get total() {
      return total;
    },
    received: () => (target ? target.subarray(0, loaded) : null),
    onData(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export async function downloadModel(options: DownloadModelOptions): Promise<ArrayBuffer> {
  return startModelDownload(options).done;
}

/** Fetches a public file (no auth, no XOR), e.g. a sample model. */
export async function fetchPublicFile(url: string, signal?: AbortSignal): Promise<ArrayBuffer> {
  const response = await fetch(url, { signal });
  if (!response.ok) throw new Error(`Failed to download from URL: ${response.status}`);
  return response.arrayBuffer();
}

/**
 * The page's model downloads begun before React hydrated (startViewerEarly, decision 035): the requests the
 * HTML's preload links started (the model, and its coarse level when it has one), read as they arrive and
 * XOR-decoded with the page's key (SPEC §7: every model is delivered encoded, public ones too). ModelViewer
 * adopts them instead of fetching again.
 */
const early = new Map<string, { xorKey: Uint8Array | null; download: ModelDownload; abort: AbortController }>();

/**
 * Starts downloading a public model (no token) ahead of the viewer; see takeEarlyModelDownload. A second call
 * for the same URL and key before the viewer took it returns the download under way (the early splats and
 * startViewerEarly both ask for a coarse level, whichever runs first starts it).
 */
export function startEarlyModelDownload(url: string, xorKey: Uint8Array | null): ModelDownload {
  const key = xorKey && xorKey.length > 0 ? xorKey : null;
  const href = new URL(url, document.baseURI).href;
  const started = early.get(href);
  if (started && sameKey(started.xorKey, key)) return started.download;
  const abort = new AbortController();
  const download = startModelDownload({ url, xorKey: key, signal: abort.signal });
  early.set(href, { xorKey: key, download, abort });
  return download;
}

function sameKey(a: Uint8Array | null, b: Uint8Array | null | undefined): boolean {
  const other = b && b.length > 0 ? b : null;
  if (!a || !other) return a === other;
  return a.length === other.length && a.every((byte, i) => byte === other[i]);
}

/**
 * The early download of this model, once (a later viewer of the same URL downloads on its own), with the
 * function that cancels it; null when none was started for this URL and key (its bytes would be decoded
 * with another key) or when the viewer needs a token (the early request carried none).
 */
export function takeEarlyModelDownload(
  url: string,
  { token, xorKey }: { token?: string | null; xorKey?: Uint8Array | null },
): { download: ModelDownload; cancel: () => void } | null {
  if (token || typeof document === "undefined") return null;
  const href = new URL(url, document.baseURI).href;
  const started = early.get(href);
  if (!started || !sameKey(started.xorKey, xorKey)) return null;
  early.delete(href);
  const { download, abort } = started;
  return { download, cancel: () => abort.abort() };
}
