import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import {
  fitLongSide,
  holdoutFrames,
  laplacianVariance,
  MAX_FRAMES,
  median,
  selectExpression,
  selectFrames,
  spread,
  targetFrameCount,
  validationFrames,
} from "./frame-selection";

function checkerboard(width: number, height: number, cell: number) {
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) pixels[y * width + x] = (Math.floor(x / cell) + Math.floor(y / cell)) % 2 ? 255 : 0;
  return pixels;
}

/** A 3×3 box blur: the same picture, less sharp. */
function blur(pixels: Uint8Array, width: number, height: number) {
  const out = new Uint8Array(pixels.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      let n = 0;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
        const yy = y + dy;
        const xx = x + dx;
        if (yy >= 0 && yy < height && xx >= 0 && xx < width) {
          sum += pixels[yy * width + xx];
          n++;
        }
      }
      out[y * width + x] = Math.round(sum / n);
    }
  }
  return out;
}

describe("laplacianVariance", () => {
  it("is zero for a flat image and higher for a sharp one than for the same image blurred", () => {
    expect(laplacianVariance(new Uint8Array(64 * 48).fill(120), 64, 48)).toBe(0);
    const sharp = checkerboard(64, 48, 4);
    const soft = blur(sharp, 64, 48);
    const softer = blur(soft, 64, 48);
    expect(laplacianVariance(sharp, 64, 48)).toBeGreaterThan(laplacianVariance(soft, 64, 48));
    expect(laplacianVariance(soft, 64, 48)).toBeGreaterThan(laplacianVariance(softer, 64, 48));
  });

  it("matches a hand computation on a single bright pixel", () => {
    // 3×3 image: only the centre is measured; its Laplacian is -4·9 = -36, and a single value has no variance.
    const pixels = new Uint8Array([0, 0, 0, 0, 9, 0, 0, 0, 0]);
    expect(laplacianVariance(pixels, 3, 3)).toBe(0);
    // 4×3: two measured pixels with Laplacians -36 and 9 → variance 506.25.
    const wide = new Uint8Array([0, 0, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0]);
    expect(laplacianVariance(wide, 4, 3)).toBeCloseTo(506.25);
  });
});

describe("selectFrames", () => {
  it("keeps the sharpest frame of each equal window", () => {
    const sharpness = [1, 5, 2, 9, 3, 4, 8, 7, 6];
    expect(selectFrames(sharpness, 3).candidates).toEqual([1, 3, 6]);
  });

  it("drops candidates below 0.35× the median sharpness", () => {
    // Window winners: 100, 90, 10 (blurred), 110 → median 95 → floor 33.25 drops the 10.
    const sharpness = [100, 1, 90, 2, 10, 3, 110, 4];
    const choice = selectFrames(sharpness, 4);
    expect(choice.candidates).toEqual([0, 2, 4, 6]);
    expect(choice.medianSharpness).toBe(95);
    expect(choice.kept).toEqual([0, 2, 6]);
  });

  it("takes every frame when there are fewer frames than windows", () => {
    expect(selectFrames([3, 3, 3], 10).kept).toEqual([0, 1, 2]);
  });
});

describe("targetFrameCount", () => {
  it("takes 150 frames up to 90 s, rising to 300 at 180 s, never more than half the frames", () => {
    expect(targetFrameCount({ seconds: 60, frames: 1800 })).toBe(150);
    expect(targetFrameCount({ seconds: 120, frames: 3600 })).toBe(200);
    expect(targetFrameCount({ seconds: 180, frames: 5400 })).toBe(300);
    expect(targetFrameCount({ seconds: 400, frames: 5400 })).toBe(300);
    expect(targetFrameCount({ seconds: 8, frames: 96 })).toBe(48);
    expect(targetFrameCount({ seconds: 1, frames: 30 })).toBe(30);
  });
});

describe("helpers", () => {
  it("fits the long side to 1600 px with even sizes", () => {
    expect(fitLongSide(3840, 2160)).toEqual({ width: 1600, height: 900 });
    expect(fitLongSide(1080, 1920)).toEqual({ width: 900, height: 1600 });
    expect(fitLongSide(800, 600)).toEqual({ width: 800, height: 600 });
  });

  it("holds out every 8th frame, starting with the first", () => {
    const frames = Array.from({ length: 20 }, (_, i) => `f${i}`);
    expect(holdoutFrames(frames)).toEqual(["f0", "f8", "f16"]);
  });

  it("computes the median", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBe(0);
  });
});

describe("splits and spreads", () => {
  it("splits frames into test (every 8th from the first), validation (every 8th from the fifth) and the rest", () => {
    const frames = Array.from({ length: 22 }, (_, i) => i);
    expect(holdoutFrames(frames)).toEqual([0, 8, 16]);
    expect(validationFrames(frames)).toEqual([4, 12, 20]);
    expect(holdoutFrames(frames).filter((f) => validationFrames(frames).includes(f))).toEqual([]);
  });

  it("spreads a choice evenly over the list, in order, and takes all of a short list", () => {
    expect(spread([1, 2, 3], 5)).toEqual([1, 2, 3]);
    const picked = spread(Array.from({ length: 300 }, (_, i) => i), 60);
    expect(picked).toHaveLength(60);
    expect(new Set(picked).size).toBe(60);
    expect(picked[0]).toBeLessThan(5);
    expect(picked[59]).toBeGreaterThan(294);
    for (let i = 1; i < 60; i++) expect(picked[i] - picked[i - 1]).toBe(5);
  });
});

describe("selectExpression", () => {
  it("nests the terms so that none is more than log2(n) deep", () => {
    expect(selectExpression([7])).toBe("eq(n,7)");
    expect(selectExpression([1, 5, 9])).toBe("(eq(n,1)+(eq(n,5)+eq(n,9)))");
    const tree = selectExpression(Array.from({ length: MAX_FRAMES }, (_, i) => i * 18)).replace(/eq\(n,\d+\)/g, "x");
    const deepest = Math.max(...[...tree].reduce<number[]>((depths, c) => {
      const last = depths.at(-1) ?? 0;
      return [...depths, c === "(" ? last + 1 : c === ")" ? last - 1 : last];
    }, []));
    expect(deepest).toBe(Math.ceil(Math.log2(MAX_FRAMES)));
    expect(() => selectExpression([])).toThrow();
  });

  it("makes ffmpeg pass exactly the chosen frames of a 180 s video's 300 (a flat sum of more than 100 fails to parse)", async () => {
    // 20 s at 30 fps, tiny: 600 frames, 300 chosen — as many as the frame stage keeps from the longest video.
    const chosen = Array.from({ length: MAX_FRAMES }, (_, i) => i * 2 + (i % 2));
    const { stderr } = await promisify(execFile)(
      "ffmpeg",
      ["-hide_banner", "-f", "lavfi", "-i", "testsrc=size=32x18:rate=30:duration=20", "-vf", `select='${selectExpression(chosen)}',showinfo`, "-fps_mode", "passthrough", "-f", "null", "-"],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    const passed = [...stderr.matchAll(/\bpts:\s*(\d+)/g)].map((m) => Number(m[1]));
    expect(passed).toEqual(chosen);
    await expect(
      promisify(execFile)("ffmpeg", ["-hide_banner", "-f", "lavfi", "-i", "testsrc=size=32x18:rate=30:duration=5", "-vf", `select='${chosen.slice(0, 101).map((n) => `eq(n,${n})`).join("+")}'`, "-f", "null", "-"]),
    ).rejects.toThrow(/Error while parsing expression/);
  });
});
