/**
 * Image quality of a trained splat against held-out frames (issue 5: PSNR/SSIM when a trained splat
 * exists). Both images are 8-bit RGB of the same size. Pure.
 */
export function psnr(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length || a.length === 0) throw new Error("images differ in size");
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i] - b[i];
    sum += d * d;
  }
  const mse = sum / a.length;
  return mse === 0 ? Number.POSITIVE_INFINITY : 10 * Math.log10((255 * 255) / mse);
}

function luminance(rgb: Uint8Array): Float64Array {
  const out = new Float64Array(rgb.length / 3);
  for (let i = 0; i < out.length; i++) out[i] = 0.299 * rgb[i * 3] + 0.587 * rgb[i * 3 + 1] + 0.114 * rgb[i * 3 + 2];
  return out;
}

/** Mean SSIM of the luminance over 8×8 windows with a stride of 4 (Wang et al. 2004 constants). */
export function ssim(a: Uint8Array, b: Uint8Array, width: number, height: number): number {
  if (a.length !== b.length || a.length !== width * height * 3) throw new Error("images differ in size");
  const x = luminance(a);
  const y = luminance(b);
  const c1 = (0.01 * 255) ** 2;
  const c2 = (0.03 * 255) ** 2;
  const size = 8;
  let total = 0;
  let windows = 0;
  for (let top = 0; top + size <= height; top += 4) {
    for (let left = 0; left + size <= width; left += 4) {
      let mx = 0;
      let my = 0;
      for (let r = 0; r < size; r++) {
        for (let c = 0; c < size; c++) {
          const i = (top + r) * width + left + c;
          mx += x[i];
          my += y[i];
        }
      }
      const n = size * size;
      mx /= n;
      my /= n;
      let vx = 0;
      let vy = 0;
      let cov = 0;
      for (let r = 0; r < size; r++) {
        for (let c = 0; c < size; c++) {
          const i = (top + r) * width + left + c;
          vx += (x[i] - mx) ** 2;
          vy += (y[i] - my) ** 2;
          cov += (x[i] - mx) * (y[i] - my);
        }
      }
      vx /= n - 1;
      vy /= n - 1;
      cov /= n - 1;
      total += ((2 * mx * my + c1) * (2 * cov + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2));
      windows++;
    }
  }
  return windows ? total / windows : 1;
}
