/**
 * Choosing video frames for a scan (DESIGN §5): one frame per equal time window, the sharpest of each
 * by the variance of the Laplacian, then dropping those below 0.35× the median sharpness. Pure
 * functions; the frames stage feeds them grey pixels decoded by ffmpeg.
 */
export const MIN_FRAMES = 150;
export const MAX_FRAMES = 300;
export const MAX_VIDEO_SECONDS = 180;
export const SHARPNESS_FLOOR = 0.35;
export const MAX_LONG_SIDE = 1600;

/**
 * Variance of the 4-neighbour Laplacian over the image's interior (8-bit grey, row-major). Blur
 * flattens edges, so a blurred frame scores lower than a sharp one of the same view.
 */
export function laplacianVariance(pixels: Uint8Array, width: number, height: number): number {
  if (width < 3 || height < 3) return 0;
  let sum = 0;
  let sumSquares = 0;
  for (let y = 1; y < height - 1; y++) {
    const row = y * width;
    for (let x = 1; x < width - 1; x++) {
      const i = row + x;
      const value = pixels[i - width] + pixels[i + width] + pixels[i - 1] + pixels[i + 1] - 4 * pixels[i];
      sum += value;
      sumSquares += value * value;
    }
  }
  const count = (width - 2) * (height - 2);
  const mean = sum / count;
  return sumSquares / count - mean * mean;
}

/**
 * How many frames to take from a video: 150 for up to 90 s, rising to 300 at 180 s; never more than
 * half the frames decoded (each window then offers at least two to choose from), and every frame of
 * a very short clip.
 */
export function targetFrameCount({ seconds, frames }: { seconds: number; frames: number }): number {
  const wanted = Math.min(MAX_FRAMES, Math.max(MIN_FRAMES, Math.round((Math.min(seconds, MAX_VIDEO_SECONDS) * MAX_FRAMES) / MAX_VIDEO_SECONDS)));
  if (frames < 2 * 20) return frames;
  return Math.min(wanted, Math.floor(frames / 2));
}

export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export interface FrameChoice {
  /** Indices (decode order) of the frames kept, ascending. */
  kept: number[];
  /** The sharpest frame of each window before the floor was applied. */
  candidates: number[];
  medianSharpness: number;
}

/**
 * Splits `sharpness.length` frames into `windows` equal windows, keeps the sharpest of each, then
 * drops those below `floor` × the median of the kept ones.
 */
export function selectFrames(sharpness: number[], windows: number, floor = SHARPNESS_FLOOR): FrameChoice {
  const total = sharpness.length;
  const count = Math.max(0, Math.min(windows, total));
  const candidates: number[] = [];
  for (let w = 0; w < count; w++) {
    const start = Math.floor((w * total) / count);
    const end = Math.floor(((w + 1) * total) / count);
    let best = start;
    for (let i = start + 1; i < end; i++) if (sharpness[i] > sharpness[best]) best = i;
    if (end > start) candidates.push(best);
  }
  const medianSharpness = median(candidates.map((i) => sharpness[i]));
  const kept = candidates.filter((i) => sharpness[i] >= floor * medianSharpness);
  return { kept, candidates, medianSharpness };
}

/**
 * An ffmpeg `select` expression true for exactly the frame numbers given: the terms added as a balanced tree
 * (`((a+b)+(c+d))…`). ffmpeg's expression parser refuses a flat sum of more than 100 terms, and a video of more
 * than ~7 s keeps more frames than that (300 at 180 s); nested this way 300 frames are 9 levels deep.
 */
export function selectExpression(frameNumbers: number[]): string {
  if (frameNumbers.length === 0) throw new Error("no frame to select");
  const tree = (from: number, to: number): string => {
    if (to - from === 1) return `eq(n,${frameNumbers[from]})`;
    const middle = (from + to) >> 1;
    return `(${tree(from, middle)}+${tree(middle, to)})`;
  };
  return tree(0, frameNumbers.length);
}

/** The size to scale a frame to so its long side is at most `maxLongSide` (even numbers, as encoders like). */
export function fitLongSide(width: number, height: number, maxLongSide = MAX_LONG_SIDE): { width: number; height: number } {
  const scale = Math.min(1, maxLongSide / Math.max(width, height));
  const even = (v: number) => Math.max(2, Math.round((v * scale) / 2) * 2);
  return scale === 1 ? { width, height } : { width: even(width), height: even(height) };
}

/** Held-out test views: every 8th frame (index 0, 8, 16, … as in the 3DGS papers). Never used for any choice. */
export function holdoutFrames<T>(frames: T[], every = 8): T[] {
  return frames.filter((_, i) => i % every === 0);
}

/**
 * Validation views: every 8th frame half-way between two test views (index 4, 12, 20, …). Kept out of
 * training like the test views; defaults are tuned (and training may be judged) on them, never on the test views.
 */
export function validationFrames<T>(frames: T[], every = 8): T[] {
  return frames.filter((_, i) => i % every === every / 2);
}

/** Up to `max` items evenly spread over the list, in order (all of them when there are no more). */
export function spread<T>(items: T[], max: number): T[] {
  if (items.length <= max) return items;
  return Array.from({ length: max }, (_, i) => items[Math.floor(((i + 0.5) * items.length) / max)]);
}
