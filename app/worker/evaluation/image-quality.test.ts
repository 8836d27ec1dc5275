import { describe, expect, it } from "vitest";
import { coverageShare, psnr, ssim, type RgbImage } from "./image-quality";

/** A smooth, textured test picture (values in 0..1). */
function picture(width: number, height: number, shift = 0): RgbImage {
  const rgb = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const u = x - shift;
      rgb[(y * width + x) * 3] = 0.5 + 0.4 * Math.sin(u / 3) * Math.cos(y / 5);
      rgb[(y * width + x) * 3 + 1] = 0.5 + 0.3 * Math.cos((u + y) / 4);
      rgb[(y * width + x) * 3 + 2] = 0.4 + 0.3 * Math.sin((u * y) / 60);
    }
  }
  return { width, height, rgb };
}

/** SSIM straight from its definition (3DGS's ssim: 11×11 gaussian, σ 1.5, zero padding, per channel), in 2-D loops. */
function referenceSsim(a: RgbImage, b: RgbImage): number {
  const { width, height } = a;
  const w: number[] = [];
  for (let dy = -5; dy <= 5; dy++) for (let dx = -5; dx <= 5; dx++) w.push(Math.exp(-(dx * dx + dy * dy) / (2 * 1.5 * 1.5)));
  const sum = w.reduce((s, v) => s + v, 0);
  const value = (image: RgbImage, x: number, y: number, c: number) => (x < 0 || y < 0 || x >= width || y >= height ? 0 : Number(image.rgb[(y * width + x) * 3 + c]));
  let total = 0;
  for (let c = 0; c < 3; c++) {
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        let mx = 0, my = 0, xx = 0, yy = 0, xy = 0;
        let k = 0;
        for (let dy = -5; dy <= 5; dy++) {
          for (let dx = -5; dx <= 5; dx++) {
            const g = w[k++] / sum;
            const u = value(a, x + dx, y + dy, c);
            const v = value(b, x + dx, y + dy, c);
            mx += g * u;
            my += g * v;
            xx += g * u * u;
            yy += g * v * v;
            xy += g * u * v;
          }
        }
        const c1 = 1e-4, c2 = 9e-4;
        total += ((2 * mx * my + c1) * (2 * (xy - mx * my) + c2)) / ((mx * mx + my * my + c1) * (xx - mx * mx + yy - my * my + c2));
      }
    }
  }
  return total / (3 * width * height);
}

describe("image quality (3DGS's figures)", () => {
  it("gives equal images an infinite PSNR and an SSIM of 1, 8-bit or float alike", () => {
    const a = picture(40, 30);
    expect(psnr(a, a)).toBe(Number.POSITIVE_INFINITY);
    expect(ssim(a, a)).toBeCloseTo(1, 12);
    const bytes: RgbImage = { width: 40, height: 30, rgb: Uint8Array.from(a.rgb, (v) => Math.round(v * 255)) };
    expect(psnr(bytes, bytes)).toBe(Number.POSITIVE_INFINITY);
  });

  it("computes PSNR from the mean squared error over every pixel and channel", () => {
    const a: RgbImage = { width: 2, height: 1, rgb: new Float32Array([0, 0, 0, 0, 0, 0]) };
    const b: RgbImage = { width: 2, height: 1, rgb: new Float32Array([0.1, 0.1, 0.1, 0.1, 0.1, 0.1]) };
    // MSE 0.01 → 20 dB.
    expect(psnr(a, b)).toBeCloseTo(20, 5);
    expect(() => psnr(a, { width: 1, height: 1, rgb: new Float32Array(3) })).toThrow(/differ in size/);
  });

  it("computes SSIM as its definition does, window by window with zero padding", () => {
    const a = picture(24, 18);
    const b = picture(24, 18, 1.5);
    const fast = ssim(a, b);
    const reference = referenceSsim(a, b);
    console.warn(`[quality] SSIM separable ${fast.toFixed(6)} against the 2-D definition ${reference.toFixed(6)}`);
    expect(Math.abs(fast - reference)).toBeLessThan(1e-6);
  });

  it("scores every channel: a change in blue alone costs as much as the same change in green", () => {
    const a = picture(32, 32);
    const change = (channel: number) => {
      const rgb = Float32Array.from(a.rgb);
      for (let i = channel; i < rgb.length; i += 3) rgb[i] = 1 - rgb[i];
      return ssim(a, { ...a, rgb });
    };
    // A luminance-only SSIM would weigh blue by 0.114 and green by 0.587.
    expect(change(2)).toBeLessThan(0.75);
    expect(Math.abs(change(2) - change(1))).toBeLessThan(0.1);
  });

  it("scores a picture shifted by 2 px lower than the same picture in place", () => {
    const photo = picture(64, 48);
    const inPlace = picture(64, 48);
    const shifted = picture(64, 48, 2);
    expect(psnr(shifted, photo)).toBeLessThan(psnr(inPlace, photo));
    expect(ssim(shifted, photo)).toBeLessThan(ssim(inPlace, photo));
  });

  it("counts the share of pixels a model covers at least half", () => {
    expect(coverageShare(new Float32Array([0, 0.49, 0.5, 1]))).toBe(0.5);
    expect(coverageShare(new Uint8Array([0, 255, 255, 255]))).toBe(0.75);
    expect(coverageShare(new Float32Array(0))).toBe(0);
  });
});
