/**
 * A read-only window hook with the live viewers' counters, for support staff in devtools, the
 * end-to-end tests (disposing viewers must give every GPU resource back) and the bench (frames
 * drawn): `window.__scanroomViewers()` → { created, disposed, live: ViewerStats[] }.
 */
import type { ViewerStats } from "./types";

interface Registry {
  created: number;
  disposed: number;
  live: Map<number, () => ViewerStats>;
}

const registry: Registry = { created: 0, disposed: 0, live: new Map() };

export interface ViewerDiagnostics {
  created: number;
  disposed: number;
  live: ViewerStats[];
}

export function viewerDiagnostics(): ViewerDiagnostics {
  return { created: registry.created, disposed: registry.disposed, live: [...registry.live.values()].map((stats) => stats()) };
}

/** Registers a viewer; returns the function to call when it is disposed. */
export function registerViewer(stats: () => ViewerStats): () => void {
  const id = ++registry.created;
  registry.live.set(id, stats);
  if (typeof window !== "undefined") (window as Window & { __scanroomViewers?: () => ViewerDiagnostics }).__scanroomViewers = viewerDiagnostics;
  return () => {
    if (registry.live.delete(id)) registry.disposed++;
  };
}
