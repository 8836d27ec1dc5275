/**
 * How much a device can draw (issue 6 "Adapts to the device"): phones get a lower pixel ratio and
 * splat budget, so a 3-million-splat scan stays interactive and the tab is not killed for memory.
 */
export interface DeviceProfile {
  kind: "phone" | "tablet" | "desktop";
  /** Upper bound for the device pixel ratio used for rendering. */
  maxPixelRatio: number;
  /** Most splats drawn per frame; bigger models are drawn through a level-of-detail tree. */
  splatBudget: number;
}

export interface DeviceTraits {
  /** A touch screen is the main pointer (`(pointer: coarse)`). */
  coarsePointer: boolean;
  /** The shorter side of the screen in CSS pixels. */
  shortSide: number;
  /** navigator.deviceMemory (GB, rounded down by the browser), when the browser tells. */
  memoryGb?: number;
}

export function deviceProfile({ coarsePointer, shortSide, memoryGb }: DeviceTraits): DeviceProfile {
  const lowMemory = memoryGb !== undefined && memoryGb <= 2;
  if (coarsePointer && shortSide < 600) return { kind: "phone", maxPixelRatio: 1.5, splatBudget: lowMemory ? 500_000 : 1_000_000 };
  if (coarsePointer) return { kind: "tablet", maxPixelRatio: 1.75, splatBudget: lowMemory ? 750_000 : 1_500_000 };
  return { kind: "desktop", maxPixelRatio: 2, splatBudget: lowMemory ? 1_500_000 : 3_000_000 };
}

/** The profile of the device this page runs on (desktop outside a browser). */
export function detectDeviceProfile(): DeviceProfile {
  if (typeof window === "undefined") return deviceProfile({ coarsePointer: false, shortSide: 1080 });
  const coarsePointer = typeof window.matchMedia === "function" && window.matchMedia("(pointer: coarse)").matches;
  const shortSide = Math.min(window.screen?.width ?? 1080, window.screen?.height ?? 1080);
  const memoryGb = (navigator as Navigator & { deviceMemory?: number }).deviceMemory;
  return deviceProfile({ coarsePointer, shortSide, memoryGb });
}

/** Software rasterisers a browser falls back to without a usable GPU (SwiftShader, Mesa's llvmpipe, Windows' WARP). */
const SOFTWARE_RENDERER = /swiftshader|llvmpipe|softpipe|microsoft basic render|software/i;

/** The renderer the browser reports for this context ("ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device…" in Chromium). */
export function rendererName(gl: WebGLRenderingContext | WebGL2RenderingContext): string {
  const info = gl.getExtension("WEBGL_debug_renderer_info");
  const name: unknown = gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER);
  return typeof name === "string" ? name : "";
}

/**
 * Cube face size of the meshes' prefiltered lighting environment: three's 256 on a GPU, where it takes
 * milliseconds; 64 under a software rasteriser, where prefiltering at 256 took 13 s on a busy 2-core machine
 * and froze the page for as long (the canvas readback waits for it on the main thread). The environment is a
 * soft studio, so only mirror-like surfaces show the coarser reflection.
 */
export function environmentMapSize(renderer: string): number {
  return SOFTWARE_RENDERER.test(renderer) ? 64 : 256;
}
