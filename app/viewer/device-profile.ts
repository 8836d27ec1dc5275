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
