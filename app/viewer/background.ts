/**
 * What the viewer shows behind a model (an item's viewer settings' `background`, decision 053): a colour, a
 * two-colour vertical gradient, or one of our environments — a sky or a studio drawn by this file's code (no
 * image is downloaded: the viewer works offline and inside any embed). Pure: the three.js side is backdrop.ts;
 * the server thumbnails read the same colours (backgroundStops).
 */

import { parseHexColor, srgbToLinear, type Rgb } from "../thumbnails/color";

/** The colour behind a model unless its settings choose another (the viewer's canvas, server thumbnails). */
export const DEFAULT_BACKGROUND = "#1e1f22";

export const ENVIRONMENT_NAMES = ["studio", "outdoor", "sunset"] as const;
export type EnvironmentName = (typeof ENVIRONMENT_NAMES)[number];

// Types, not interfaces: stored as JSON (Prisma's JSON input wants an index signature, which only type aliases give).
export type GradientBackground = {
  type: "gradient";
  /** CSS hex colours of the frame's top and bottom rows. */
  top: string;
  bottom: string;
};

export type EnvironmentBackground = {
  type: "environment";
  name: EnvironmentName;
};

/** A CSS hex colour (as before decision 053), a gradient, or an environment. */
export type ViewerBackground = string | GradientBackground | EnvironmentBackground;

/** A colour in 0..1 sRGB from "#abc" or "#aabbcc" (the renderers' parser); the default background's for anything else. */
export function hexToRgb(hex: string): Rgb {
  try {
    return parseHexColor(hex);
  } catch {
    return parseHexColor(DEFAULT_BACKGROUND);
  }
}

export function rgbToHex(rgb: Rgb): string {
  return `#${rgb.map((c) => Math.round(Math.min(1, Math.max(0, c)) * 255).toString(16).padStart(2, "0")).join("")}`;
}

function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

/** A band of sky (or floor) colours by elevation, in degrees from the horizon (+90 straight up). */
interface EnvironmentLook {
  label: string;
  /** Colours at elevations, from +90 down to -90. */
  stops: { at: number; color: string }[];
  /**
   * Bright spots that light a mesh (the sun, a studio's soft boxes): direction and radius in degrees, how much they
   * cover the sky in the picture (strength), and their radiance in the lighting picture (linear; the sky is ≤ 1).
   */
  lights: { azimuth: number; elevation: number; radius: number; color: string; strength: number; radiance: number }[];
}

export const ENVIRONMENTS: Record<EnvironmentName, EnvironmentLook> = {
  studio: {
    label: "Studio",
    stops: [
      { at: 90, color: "#e4e6e9" },
      { at: 30, color: "#c3c6cb" },
      { at: 0, color: "#9ea2a8" },
      { at: -8, color: "#7d8187" },
      { at: -90, color: "#5a5d62" },
    ],
    lights: [
      { azimuth: -55, elevation: 35, radius: 18, color: "#ffffff", strength: 0.9, radiance: 6 },
      { azimuth: 60, elevation: 25, radius: 14, color: "#fff6ea", strength: 0.6, radiance: 4 },
    ],
  },
  outdoor: {
    label: "Outdoor",
    stops: [
      { at: 90, color: "#2f6dbf" },
      { at: 25, color: "#6a9fdb" },
      { at: 2, color: "#c3dbef" },
      { at: 0, color: "#a9ab98" },
      { at: -90, color: "#56603f" },
    ],
    lights: [{ azimuth: 40, elevation: 50, radius: 4, color: "#fffbe8", strength: 1, radiance: 60 }],
  },
  sunset: {
    label: "Sunset",
    stops: [
      { at: 90, color: "#1f2a55" },
      { at: 40, color: "#5a4a7a" },
      { at: 12, color: "#d2736a" },
      { at: 1, color: "#ffb56b" },
      { at: 0, color: "#3d2b2e" },
      { at: -90, color: "#140f14" },
    ],
    lights: [{ azimuth: 0, elevation: 3, radius: 3.5, color: "#ffd08a", strength: 1, radiance: 60 }],
  },
};

/** The sky's colour straight ahead at an elevation (degrees), without its lights. */
function bandColour(look: EnvironmentLook, elevation: number): Rgb {
  const { stops } = look;
  if (elevation >= stops[0].at) return hexToRgb(stops[0].color);
  for (let i = 1; i < stops.length; i++) {
    const upper = stops[i - 1];
    const lower = stops[i];
    if (elevation >= lower.at) return mix(hexToRgb(lower.color), hexToRgb(upper.color), (elevation - lower.at) / (upper.at - lower.at));
  }
  return hexToRgb(stops[stops.length - 1].color);
}

/**
 * The environment's colour (0..1 sRGB) in a direction: azimuth in degrees around the vertical axis (0 towards −z,
 * the viewer's default view looks that way), elevation in degrees from the horizon. Its lights are soft discs.
 */
export function environmentColour(name: EnvironmentName, azimuth: number, elevation: number): Rgb {
  const look = ENVIRONMENTS[name];
  let colour = bandColour(look, elevation);
  for (const light of look.lights) {
    const angle = angleBetween(azimuth, elevation, light.azimuth, light.elevation);
    // A bright core, its edge soft over a third of its radius (the sky's cube faces are ~0.7° a texel: a hard edge
    // shows their squares), and a glow that fades over three radii.
    const core = Math.min(1, Math.max(0, (light.radius - angle) / (light.radius / 3) + 0.5));
    const glow = Math.max(0, 1 - angle / (light.radius * 3));
    const amount = Math.min(1, core * light.strength + glow * glow * light.strength * 0.6);
    if (amount > 0) colour = mix(colour, hexToRgb(light.color), amount);
  }
  return colour;
}

const toRad = Math.PI / 180;

/** Degrees between two directions given as azimuth and elevation. */
function angleBetween(az1: number, el1: number, az2: number, el2: number): number {
  const dir = (az: number, el: number): Rgb => [Math.cos(el * toRad) * Math.sin(az * toRad), Math.sin(el * toRad), -Math.cos(el * toRad) * Math.cos(az * toRad)];
  const [a, b] = [dir(az1, el1), dir(az2, el2)];
  return Math.acos(Math.min(1, Math.max(-1, a[0] * b[0] + a[1] * b[1] + a[2] * b[2]))) / toRad;
}

/** The azimuth (degrees) a column of an equirectangular picture looks towards, as three reads it. */
function columnAzimuth(x: number, width: number): number {
  // three's equirect lookup: u = atan(dir.z, dir.x) / 2π + 0.5; azimuth 0 (−z) is at u = 0.25.
  const phi = ((x + 0.5) / width - 0.5) * 2 * Math.PI; // atan2(z, x)
  return (Math.atan2(Math.cos(phi), -Math.sin(phi)) * 180) / Math.PI;
}

/**
 * The environment's light for meshes: the picture in linear RGBA floats (rows from the bottom up, as
 * environmentPixels), its lights' cores as bright as their `radiance` — an 8-bit sky alone lights a mesh dimly.
 */
export function environmentRadiance(name: EnvironmentName, width: number): Float32Array {
  const height = Math.max(1, Math.round(width / 2));
  const data = new Float32Array(width * height * 4);
  const { lights } = ENVIRONMENTS[name];
  for (let y = 0; y < height; y++) {
    const elevation = ((y + 0.5) / height) * 180 - 90;
    for (let x = 0; x < width; x++) {
      const azimuth = columnAzimuth(x, width);
      const rgb = environmentColour(name, azimuth, elevation).map(srgbToLinear);
      for (const light of lights) {
        if (angleBetween(azimuth, elevation, light.azimuth, light.elevation) > light.radius) continue;
        const colour = hexToRgb(light.color).map(srgbToLinear);
        for (let c = 0; c < 3; c++) rgb[c] += colour[c] * light.radiance;
      }
      data.set([rgb[0], rgb[1], rgb[2], 1], (y * width + x) * 4);
    }
  }
  return data;
}

/**
 * An equirectangular picture of the environment, `width` × `width / 2` RGBA bytes in sRGB, rows from the bottom (the
 * nadir) up — what a DataTexture with three's EquirectangularReflectionMapping reads (v = 0 is straight down).
 */
export function environmentPixels(name: EnvironmentName, width: number): Uint8Array {
  const height = Math.max(1, Math.round(width / 2));
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const elevation = ((y + 0.5) / height) * 180 - 90;
    for (let x = 0; x < width; x++) {
      const azimuth = columnAzimuth(x, width);
      const rgb = environmentColour(name, azimuth, elevation);
      const i = (y * width + x) * 4;
      data[i] = Math.round(rgb[0] * 255);
      data[i + 1] = Math.round(rgb[1] * 255);
      data[i + 2] = Math.round(rgb[2] * 255);
      data[i + 3] = 255;
    }
  }
  return data;
}

/** Half the vertical field of view the flat pictures of an environment stand for (the viewer's default 45°). */
const FLAT_HALF_FOV = 22.5;

/**
 * The background as colours from the frame's top row to its bottom row, evenly spaced (CSS hex): one for a colour,
 * two for a gradient, and for an environment what a level camera at the default field of view sees away from its
 * lights (top, horizon, bottom). For what has no WebGL: the frame before the first draw, server thumbnails.
 */
export function backgroundStops(background: ViewerBackground | null | undefined): string[] {
  if (!background) return [DEFAULT_BACKGROUND];
  if (typeof background === "string") return [background];
  if (background.type === "gradient") return [background.top, background.bottom];
  const away = 180 + (ENVIRONMENTS[background.name].lights[0]?.azimuth ?? 0);
  return [FLAT_HALF_FOV, 0, -FLAT_HALF_FOV].map((elevation) => rgbToHex(environmentColour(background.name, away, elevation)));
}

/** The background as a CSS `background` value (the viewer's frame and the embed page, before WebGL has drawn). */
export function backgroundCss(background: ViewerBackground | null | undefined): string {
  const stops = backgroundStops(background);
  return stops.length === 1 ? stops[0] : `linear-gradient(to bottom, ${stops.join(", ")})`;
}

/** The colour of a row (0 = top) of a frame `height` rows tall: the stops blended evenly in sRGB, as CSS does. */
export function backgroundRowColour(stops: readonly Rgb[], row: number, height: number): Rgb {
  if (stops.length === 1) return stops[0];
  const t = height <= 1 ? 0 : (row / (height - 1)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(t));
  return mix(stops[i], stops[i + 1], t - i);
}

/** Same background (for skipping needless work when a preview sends the value already on show). */
export function sameBackground(a: ViewerBackground | null | undefined, b: ViewerBackground | null | undefined): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
