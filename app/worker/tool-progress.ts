/**
 * Progress read from the tools' own output, one line at a time (issue 5: "percent parsed from the
 * tools' own output"). Each parser returns a fraction in [0, 1] for a line that tells progress, or
 * null for any other line.
 */
import type { ProgressParser } from "~/tools/run-tool.server";

const fraction = (done: number, total: number) => (total > 0 ? Math.min(1, Math.max(0, done / total)) : null);

/** A parser whose fractions fill the part `from`–`to` of a stage: for a stage that runs a tool several times. */
export function withinRange(parser: ProgressParser, from: number, to: number): ProgressParser {
  return (line) => {
    const done = parser(line);
    return done === null ? null : from + done * (to - from);
  };
}

/** colmap feature_extractor: "Processed file [12/30]". */
export const parseFeatureProgress: ProgressParser = (line) => {
  const match = /Processed file \[(\d+)\/(\d+)\]/.exec(line);
  return match ? fraction(Number(match[1]), Number(match[2])) : null;
};

/**
 * colmap matchers. Exhaustive: "Matching block [2/3, 1/3]" (row-major blocks); sequential and
 * vocabulary tree: "Matching image [12/30]"; pairs from a list: "Matching block [4/9]".
 */
export const parseMatchingProgress: ProgressParser = (line) => {
  const grid = /Matching block \[(\d+)\/(\d+), (\d+)\/(\d+)\]/.exec(line);
  if (grid) {
    const [row, rows, col, cols] = grid.slice(1).map(Number);
    return fraction((row - 1) * cols + col, rows * cols);
  }
  const single = /Matching (?:block|image) \[(\d+)\/(\d+)\]/.exec(line);
  return single ? fraction(Number(single[1]), Number(single[2])) : null;
};

/** colmap mapper: "Registering image #7 (12)" — 12 images are registered so far, of `imageCount`. */
export function mappingProgressParser(imageCount: number): ProgressParser {
  return (line) => {
    const match = /Registering image #\d+ \((\d+)\)/.exec(line);
    return match ? fraction(Number(match[1]), imageCount) : null;
  };
}

/** ffmpeg's stderr status line: "frame=  123 fps= …" against the frames expected. */
export function ffmpegFrameProgressParser(expectedFrames: number): ProgressParser {
  return (line) => {
    const match = /frame=\s*(\d+)/.exec(line);
    return match ? fraction(Number(match[1]), expectedFrames) : null;
  };
}

/**
 * A trainer's output (gsplat, Brush, OpenSplat… each prints differently): the last "N/M" step
 * counter or "NN%" on the line. Lines without either tell nothing.
 */
export const parseTrainerProgress: ProgressParser = (line) => {
  const percent = /(\d{1,3}(?:\.\d+)?)\s?%/.exec(line);
  const steps = [...line.matchAll(/(\d+)\s?\/\s?(\d+)/g)].pop();
  if (steps && Number(steps[2]) > 1) return fraction(Number(steps[1]), Number(steps[2]));
  if (percent) return fraction(Number(percent[1]), 100);
  return null;
};

/** Our native programs (native/lib/progress.h): "progress 0.4200 iteration 420/1000 …". */
export const parseNativeProgress: ProgressParser = (line) => {
  const match = /^progress ([0-9]*\.?[0-9]+)(?:\s|$)/.exec(line.trim());
  return match ? fraction(Number(match[1]), 1) : null;
};
