/** Colour conversions the thumbnail renderers share (the viewer's: sRGB output, Khronos PBR Neutral tone mapping for meshes). */

export type Rgb = [number, number, number];

/**
 * What is behind the model: one colour, or colours evenly spaced from the top row to the bottom row, blended in sRGB
 * as CSS and the viewer's gradient do (a gradient background, or an environment's flat stand-in: decision 053).
 */
export type Backdrop = Rgb | { stops: Rgb[] };

/** The backdrop's colour for each row of a frame `height` rows tall, top row first. */
export function backdropRows(backdrop: Backdrop, height: number): Rgb[] {
  if (!("stops" in backdrop)) return Array.from({ length: height }, () => backdrop);
  const { stops } = backdrop;
  return Array.from({ length: height }, (_, row) => {
    if (stops.length === 1) return stops[0];
    const t = height <= 1 ? 0 : (row / (height - 1)) * (stops.length - 1);
    const i = Math.min(stops.length - 2, Math.floor(t));
    const f = t - i;
    return [0, 1, 2].map((c) => stops[i][c] + (stops[i + 1][c] - stops[i][c]) * f) as Rgb;
  });
}

export function srgbToLinear(c: number): number {
  return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
}

export function linearToSrgb(c: number): number {
  const v = c <= 0.0031308 ? c * 12.92 : 1.055 * Math.pow(c, 1 / 2.4) - 0.055;
  return v < 0 ? 0 : v > 1 ? 1 : v;
}

/** An 8-bit sRGB value → linear, by table. */
export const SRGB8_TO_LINEAR = Float32Array.from({ length: 256 }, (_, i) => srgbToLinear(i / 255));

/** "#1e1f22" or "#abc" → sRGB components in 0..1. */
export function parseHexColor(hex: string): Rgb {
  const body = hex.trim().replace(/^#/, "");
  const full = body.length === 3 ? [...body].map((c) => c + c).join("") : body;
  if (!/^[0-9a-f]{6}$/i.test(full)) throw new Error(`not a hex colour: ${hex}`);
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16) / 255) as Rgb;
}

const START_COMPRESSION = 0.8 - 0.04;
const DESATURATION = 0.15;

/** Khronos PBR Neutral tone mapping (three's NeutralToneMapping, which the viewer uses for meshes), in place on linear RGB. */
export function neutralToneMap(color: Rgb): Rgb {
  let [r, g, b] = color;
  const x = Math.min(r, g, b);
  const offset = x < 0.08 ? x - 6.25 * x * x : 0.04;
  r -= offset;
  g -= offset;
  b -= offset;
  const peak = Math.max(r, g, b);
  if (peak < START_COMPRESSION) return [r, g, b];
  const d = 1 - START_COMPRESSION;
  const newPeak = 1 - (d * d) / (peak + d - START_COMPRESSION);
  const scale = newPeak / peak;
  r *= scale;
  g *= scale;
  b *= scale;
  const mix = 1 - 1 / (DESATURATION * (peak - newPeak) + 1);
  return [r + (newPeak - r) * mix, g + (newPeak - g) * mix, b + (newPeak - b) * mix];
}
