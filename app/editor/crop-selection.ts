/**
 * The crop box's selection in chunks (pure, browser- and worker-safe; issue 35 item 8): outsideBox a
 * slice of splats at a time, with progress after each slice, so that 150k splats neither block the
 * page (the main-thread fallback yields between slices) nor leave the user without feedback (the
 * worker posts each fraction). The rule itself is outsideBoxBetween, shared with outsideBox.
 */
import { outsideBoxBetween, type CropBox } from "./selection";

/** Splats per slice: 150k splats make 10 progress steps; a slice is well under a millisecond. */
export const CROP_CHUNK = 16_384;

export interface ChunkedCrop {
  positions: Float32Array;
  box: CropBox;
  deleted: Uint8Array;
  /** Splats per slice (CROP_CHUNK). */
  chunk?: number;
  /** The share of splats looked at, after each slice; the last call is 1. */
  onProgress?: (fraction: number) => void;
  /** Awaited between slices: the main thread yields to the page there; the worker passes none. */
  pause?: () => Promise<void>;
  /** Stops between slices with an AbortError. */
  signal?: AbortSignal;
}

/** The same indices as outsideBox(positions, box, deleted), found a slice at a time. */
export async function outsideBoxInChunks({ positions, box, deleted, chunk = CROP_CHUNK, onProgress, pause, signal }: ChunkedCrop): Promise<number[]> {
  const total = deleted.length;
  const picked: number[] = [];
  for (let from = 0; from < total; from += chunk) {
    signal?.throwIfAborted();
    const to = Math.min(total, from + chunk);
    outsideBoxBetween(positions, box, deleted, from, to, picked);
    onProgress?.(to / total);
    if (to < total && pause) await pause();
  }
  if (total === 0) onProgress?.(1);
  return picked;
}
