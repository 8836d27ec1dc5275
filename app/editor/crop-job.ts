/**
 * "Delete outside box" without blocking the page (issue 35 item 8): the crop selection runs in a Web
 * Worker (crop-worker.ts) on copies of the centres and deleted flags taken at the start, so undo and
 * saving see exactly what outsideBox would have given then. Where no worker can run (no Worker, or
 * its script fails to load) the same chunked selection runs on the main thread, yielding between
 * slices. Each crop is measured as the performance entry "scanroom:crop-selection".
 */
import { outsideBoxInChunks } from "./crop-selection";
import type { CropReply, CropRequest } from "./crop-worker";
import type { CropBox } from "./selection";

export const CROP_MEASURE = "scanroom:crop-selection";

export interface CropJob {
  positions: Float32Array;
  box: CropBox;
  deleted: Uint8Array;
  onProgress: (fraction: number) => void;
  /** Cancels: the worker is ended, the promise rejects with an AbortError. */
  signal: AbortSignal;
}

/** What the measure's detail says about a crop. */
export interface CropMeasureDetail {
  splats: number;
  outside: number;
  where: "worker" | "main thread";
  progressUpdates: number;
  /** Time in the selection itself (in the worker: without its start and the copies). */
  selectionMs: number;
}

/** The kept splats outside the box (outsideBox's indices, in order), found off the main thread where possible. */
export async function findOutsideBox(job: CropJob): Promise<ArrayLike<number> & Iterable<number>> {
  const start = performance.now();
  let updates = 0;
  const counted = { ...job, onProgress: (fraction: number) => (updates++, job.onProgress(fraction)) };
  const measure = (where: CropMeasureDetail["where"], outside: number, selectionMs: number) => {
    const detail: CropMeasureDetail = { splats: job.deleted.length, outside, where, progressUpdates: updates, selectionMs };
    performance.measure(CROP_MEASURE, { start, detail });
  };
  const viaWorker = await inWorker(counted).catch((error: unknown) => {
    if (job.signal.aborted) throw error;
    return null;
  });
  if (viaWorker) {
    measure("worker", viaWorker.indices.length, viaWorker.ms);
    return viaWorker.indices;
  }
  updates = 0;
  const mainStart = performance.now();
  const picked = await outsideBoxInChunks({ ...counted, pause: yieldToPage });
  measure("main thread", picked.length, performance.now() - mainStart);
  return picked;
}

const yieldToPage = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The selection in a worker; null when no worker can be started here. */
function inWorker({ positions, box, deleted, onProgress, signal }: CropJob): Promise<{ indices: Uint32Array; ms: number } | null> {
  if (typeof Worker === "undefined") return Promise.resolve(null);
  signal.throwIfAborted();
  // The literal new Worker(new URL(…, import.meta.url)) is what Vite bundles as a worker chunk (served from 'self').
  const worker = new Worker(new URL("./crop-worker.ts", import.meta.url), { type: "module" });
  return new Promise((resolve, reject) => {
    const end = () => {
      worker.terminate();
      signal.removeEventListener("abort", abort);
    };
    const abort = () => {
      end();
      reject(signal.reason);
    };
    signal.addEventListener("abort", abort);
    worker.addEventListener("message", (event: MessageEvent<CropReply>) => {
      const reply = event.data;
      if (reply.type === "progress") return onProgress(reply.fraction);
      end();
      if (reply.type === "done") resolve({ indices: reply.indices, ms: reply.ms });
      else reject(new Error(reply.message));
    });
    // The script did not load or run (an old browser, a blocked chunk): the caller falls back.
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      end();
      resolve(null);
    });
    // Structured clone copies both arrays: the editor's own stay attached, and later edits do not reach this crop.
    const request: CropRequest = { positions, deleted, box: { min: [...box.min], max: [...box.max] } };
    worker.postMessage(request);
  });
}
