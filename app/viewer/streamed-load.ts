/**
 * Waiting for a download while it runs (issue 6 "Streams"): once a quarter of a plain .ply or
 * .splat has arrived and the rest will take a while longer, its complete splats are handed over
 * for display; the whole file follows when the download ends.
 */
import { detectFileFormat, FORMAT_HEAD_BYTES, type ModelFormat } from "../formats/model-format";
import type { ModelDownload } from "./download";
import { previewFromPrefix, supportsPreview } from "./splat-preview";

/** Share of the file that must have arrived before a preview is cut. */
const PREVIEW_AT = 0.25;
/** A preview is only worth decoding when the rest of the download is expected to take this long. */
const PREVIEW_MIN_REMAINING_MS = 2_000;

export interface PreviewBytes {
  bytes: Uint8Array;
  format: ModelFormat;
  splats: number;
  loaded: number;
  total: number;
}

/** Resolves when `ready()` holds after a chunk, or false once the download ended without it. */
function whenReceived(download: ModelDownload, ready: () => boolean): Promise<boolean> {
  if (ready()) return Promise.resolve(true);
  return new Promise<boolean>((resolve) => {
    const stop = download.onData(() => {
      if (!ready()) return;
      stop();
      resolve(true);
    });
    download.done.then(
      () => {
        stop();
        resolve(ready());
      },
      () => {
        stop();
        resolve(false);
      },
    );
  });
}

/**
 * The downloaded file. On the way, calls `showPreview` (at most once, awaited) with the first
 * splats when the format and the pace of the download make that worthwhile.
 */
export async function receiveDownload({
  download,
  fileName,
  showPreview,
  onFormat,
  isCurrent,
}: {
  download: ModelDownload;
  fileName?: string;
  /** Called as soon as the first bytes tell the format (e.g. to fetch the splat decoder meanwhile). */
  onFormat?: (format: ModelFormat) => void;
  showPreview: (preview: PreviewBytes) => Promise<void>;
  isCurrent: () => boolean;
}): Promise<ArrayBuffer> {
  const startedAt = performance.now();
  const loadedAtStart = download.loaded;
  const hasHead = await whenReceived(download, () => (download.received()?.length ?? 0) >= FORMAT_HEAD_BYTES);
  const head = download.received();
  const format = hasHead && head ? detectFileFormat(head, fileName) : null;
  if (format) onFormat?.(format);
  const total = download.total;
  if (format && supportsPreview(format) && total && isCurrent()) {
    const reached = await whenReceived(download, () => download.loaded >= total * PREVIEW_AT && download.loaded < total);
    const prefix = download.received();
    if (reached && prefix && isCurrent()) {
      const elapsed = performance.now() - startedAt;
      const received = download.loaded - loadedAtStart;
      const remainingMs = received > 0 ? ((total - download.loaded) / received) * elapsed : Infinity;
      const preview = remainingMs >= PREVIEW_MIN_REMAINING_MS ? previewFromPrefix(prefix, format) : null;
      if (preview) await showPreview({ ...preview, format, loaded: prefix.length, total });
    }
  }
  return download.done;
}
