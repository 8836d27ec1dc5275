/**
 * 3D-anchored HTML hotspots: one numbered button per annotation, kept over its anchor on the
 * model as the camera moves. Markers on the far side of the model (normal facing away) are dimmed;
 * markers behind the camera are hidden. What a click opens is the page's business (onSelect).
 */
import type { Vec3 } from "./bounds";
import { createOverlay, type Overlay } from "./overlay";
import type { Viewer } from "./types";

export interface HotspotAnnotation {
  id: string;
  title: string;
  position: Vec3;
  normal: Vec3 | null;
}

export interface HotspotsOptions {
  viewer: Viewer;
  /** An element laid exactly over the viewer's canvas (position: absolute; inset: 0). */
  layer: HTMLElement;
  onSelect?: (id: string) => void;
}

export interface Hotspots {
  setAnnotations(annotations: readonly HotspotAnnotation[]): void;
  /** Highlights one marker (the open annotation), or none. */
  setActive(id: string | null): void;
  /** Whether markers take clicks; off while the page places hotspots or measures (clicks go to the model). */
  setInteractive(interactive: boolean): void;
  dispose(): void;
}

const MARKER_STYLE = [
  "position:absolute",
  "left:0",
  "top:0",
  "width:28px",
  "height:28px",
  "margin:-14px 0 0 -14px",
  "border-radius:50%",
  "border:2px solid #fff",
  "background:rgba(28,29,34,0.85)",
  "color:#fff",
  "font:600 13px/24px system-ui,sans-serif",
  "text-align:center",
  "padding:0",
  "cursor:pointer",
  "pointer-events:auto",
  "box-shadow:0 1px 4px rgba(0,0,0,0.5)",
  "transition:opacity 150ms",
].join(";");

export function createHotspots({ viewer, layer, onSelect }: HotspotsOptions): Hotspots {
  const overlay: Overlay = createOverlay(viewer, layer);
  const group = document.createElement("div");
  group.className = "viewer-hotspots";
  group.style.cssText = "position:absolute;inset:0;pointer-events:none;overflow:hidden";
  layer.appendChild(group);
  let markers: Array<{ annotation: HotspotAnnotation; element: HTMLButtonElement }> = [];
  let activeId: string | null = null;
  let interactive = true;

  function place(): void {
    for (const { annotation, element } of markers) {
      const at = overlay.project(annotation.position);
      if (!at) {
        element.style.display = "none";
        continue;
      }
      element.style.display = "";
      element.style.transform = `translate(${at.x.toFixed(1)}px, ${at.y.toFixed(1)}px)`;
      const facing = !annotation.normal || overlay.facesCamera(annotation.position, annotation.normal);
      element.style.opacity = facing || annotation.id === activeId ? "1" : "0.35";
    }
  }

  function paintActive(): void {
    for (const { annotation, element } of markers) {
      const active = annotation.id === activeId;
      element.setAttribute("aria-pressed", String(active));
      element.style.background = active ? "#4f8cff" : "rgba(28,29,34,0.85)";
      element.style.zIndex = active ? "1" : "";
    }
  }

  const offUpdate = overlay.onUpdate(place);

  return {
    setAnnotations(annotations) {
      for (const { element } of markers) element.remove();
      markers = annotations.map((annotation, index) => {
        const element = document.createElement("button");
        element.type = "button";
        element.className = "viewer-hotspot";
        element.style.cssText = MARKER_STYLE;
        element.style.pointerEvents = interactive ? "auto" : "none";
        element.tabIndex = interactive ? 0 : -1;
        element.textContent = String(index + 1);
        element.title = annotation.title;
        element.setAttribute("aria-label", `Annotation ${index + 1}: ${annotation.title}`);
        element.dataset.annotationId = annotation.id;
        element.addEventListener("click", (event) => {
          event.stopPropagation();
          onSelect?.(annotation.id);
        });
        group.appendChild(element);
        return { annotation, element };
      });
      paintActive();
      place();
    },
    setActive(id) {
      activeId = id;
      paintActive();
      place();
    },
    setInteractive(next) {
      interactive = next;
      for (const { element } of markers) {
        element.style.pointerEvents = next ? "auto" : "none";
        element.tabIndex = next ? 0 : -1;
      }
    },
    dispose() {
      offUpdate();
      overlay.dispose();
      group.remove();
      markers = [];
    },
  };
}
