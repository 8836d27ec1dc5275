/**
 * How close a render is to a photo, as the field reports it (issue 38): PSNR over every pixel and channel, and
 * SSIM as 3DGS and gsplat compute it — an 11×11 gaussian window (σ 1.5) over each RGB channel, zero padding at
 * the borders ("same" size), constants (0.01)² and (0.03)² for values in 0..1, the mean over pixels and
 * channels. Images are RGB, 3 values a pixel, rows top to bottom. Pure.
 */

/** An RGB image: 8-bit values, or floats in 0..1. */
export interface RgbImage {
  width: number;
  height: number;
  rgb: Uint8Array | Float32Array;
}

const unit = (image: RgbImage): Float32Array => {
  if (image.rgb instanceof Float32Array) return image.rgb;
  const out = new Float32Array(image.rgb.length);
  for (let i = 0; i < out.length; i++) out[i] = image.rgb[i] / 255;
  return out;
};

function assertSameSize(a: RgbImage, b: RgbImage) {
  if (a.width !== b.width || a.height !== b.height || a.rgb.length !== a.width * a.height * 3 || b.rgb.length !== a.rgb.length) {
    throw new Error(`images differ in size: ${a.width}×${a.height} and ${b.width}×${b.height}`);
  }
}

/** Peak signal-to-noise ratio in dB over every pixel and channel (values clamped to 0..1); Infinity for equal images. */
export function psnr(a: RgbImage, b: RgbImage): number {
  assertSameSize(a, b);
  const x = unit(a);
  const y = unit(b);
  let sum = 0;
  for (let i = 0; i < x.length; i++) {
    const d = Math.min(1, Math.max(0, x[i])) - Math.min(1, Math.max(0, y[i]));
    sum += d * d;
  }
  const mse = sum / x.length;
  return mse === 0 ? Number.POSITIVE_INFINITY : -10 * Math.log10(mse);
}

const RADIUS = 5;
const SIGMA = 1.5;
const WINDOW = (() => {
  const w = Float64Array.from({ length: 2 * RADIUS + 1 }, (_, i) => Math.exp(-((i - RADIUS) ** 2) / (2 * SIGMA * SIGMA)));
  const sum = w.reduce((s, v) => s + v, 0);
  return w.map((v) => v / sum);
})();

/** Separable gaussian blur of one plane with zero padding (the same-size convolution 3DGS uses). */
function blur(plane: Float64Array, width: number, height: number): Float64Array {
  const tmp = new Float64Array(plane.length);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      let s = 0;
      const from = Math.max(-RADIUS, -x);
      const to = Math.min(RADIUS, width - 1 - x);
      for (let k = from; k <= to; k++) s += WINDOW[k + RADIUS] * plane[row + x + k];
      tmp[row + x] = s;
    }
  }
  const out = new Float64Array(plane.length);
  for (let y = 0; y < height; y++) {
    const from = Math.max(-RADIUS, -y);
    const to = Math.min(RADIUS, height - 1 - y);
    for (let k = from; k <= to; k++) {
      const w = WINDOW[k + RADIUS];
      const src = (y + k) * width;
      const dst = y * width;
      for (let x = 0; x < width; x++) out[dst + x] += w * tmp[src + x];
    }
  }
  return out;
}

/** Mean SSIM over pixels and RGB channels (3DGS's `ssim`). */
export function ssim(a: RgbImage, b: RgbImage): number {
  assertSameSize(a, b);
  const { width, height } = a;
  const x = unit(a);
  const y = unit(b);
  const n = width * height;
  const c1 = 0.01 ** 2;
  const c2 = 0.03 ** 2;
  let total = 0;
  for (let channel = 0; channel < 3; channel++) {
    const px = new Float64Array(n), py = new Float64Array(n), pxx = new Float64Array(n), pyy = new Float64Array(n), pxy = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const u = x[i * 3 + channel];
      const v = y[i * 3 + channel];
      px[i] = u;
      py[i] = v;
      pxx[i] = u * u;
      pyy[i] = v * v;
      pxy[i] = u * v;
    }
    const mx = blur(px, width, height), my = blur(py, width, height);
    const exx = blur(pxx, width, height), eyy = blur(pyy, width, height), exy = blur(pxy, width, height);
    for (let i = 0; i < n; i++) {
      const vx = exx[i] - mx[i] * mx[i];
      const vy = eyy[i] - my[i] * my[i];
      const cov = exy[i] - mx[i] * my[i];
      total += ((2 * mx[i] * my[i] + c1) * (2 * cov + c2)) / ((mx[i] * mx[i] + my[i] * my[i] + c1) * (vx + vy + c2));
    }
  }
  return total / (3 * n);
}

/** The share of pixels (0..1) whose coverage (the model's opacity there, 0..1) is at least `threshold`. */
export function coverageShare(coverage: Float32Array | Uint8Array, threshold = 0.5): number {
  if (coverage.length === 0) return 0;
  const limit = coverage instanceof Uint8Array ? threshold * 255 : threshold;
  let covered = 0;
  for (let i = 0; i < coverage.length; i++) if (coverage[i] >= limit) covered++;
  return covered / coverage.length;
}

/** PSNR and SSIM together, rounded for the record (dB to 0.01, SSIM to 0.001). */
export function imageScores(render: RgbImage, photo: RgbImage): { psnr: number; ssim: number } {
  const round = (v: number, digits: number) => (Number.isFinite(v) ? Math.round(v * 10 ** digits) / 10 ** digits : v);
  return { psnr: round(psnr(render, photo), 2), ssim: round(ssim(render, photo), 3) };
}
