/**
 * The measuring tool: two clicks on the model's surface mark two points; a line joins them and a
 * label shows their distance as the page formats it (units and real-world scale are the page's).
 * A third click starts a new measurement.
 */
import { modelDistance } from "../lib/measure";
import type { Vec3 } from "./bounds";
import { createOverlay } from "./overlay";
import { onSurfaceClick } from "./picking";
import type { Viewer } from "./types";

export interface MeasureToolOptions {
  viewer: Viewer;
  /** An element laid exactly over the viewer's canvas (position: absolute; inset: 0). */
  layer: HTMLElement;
  /** The label for a distance in model units. */
  format: (modelLength: number) => string;
  /** Called with the points marked so far (0, 1 or 2), after every change. */
  onChange?: (points: readonly Vec3[]) => void;
}

export interface MeasureTool {
  readonly points: readonly Vec3[];
  /** Re-labels the current measurement (units or scale changed). */
  setFormat(format: (modelLength: number) => string): void;
  clear(): void;
  dispose(): void;
}

const SVG_NS = "http://www.w3.org/2000/svg";

function svg<K extends keyof SVGElementTagNameMap>(name: K, attributes: Record<string, string>): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  return element;
}

export function createMeasureTool({ viewer, layer, format: initialFormat, onChange }: MeasureToolOptions): MeasureTool {
  let format = initialFormat;
  let points: Vec3[] = [];
  const overlay = createOverlay(viewer, layer);

  const root = svg("svg", { class: "viewer-measure", "aria-hidden": "true" });
  root.style.cssText = "position:absolute;inset:0;width:100%;height:100%;pointer-events:none;overflow:visible";
  const line = svg("line", { stroke: "#ffd166", "stroke-width": "2", "stroke-dasharray": "6 4" });
  const dots = [0, 1].map(() => svg("circle", { r: "5", fill: "#ffd166", stroke: "#1e1f22", "stroke-width": "2" }));
  root.append(line, ...dots);
  const label = document.createElement("div");
  label.className = "viewer-measure-label";
  label.style.cssText =
    "position:absolute;left:0;top:0;transform:translate(-50%,-130%);padding:2px 8px;border-radius:4px;background:#ffd166;color:#1e1f22;font:600 13px/1.5 system-ui,sans-serif;pointer-events:none;white-space:nowrap";
  layer.append(root, label);

  const distance = () => (points.length < 2 ? null : modelDistance(points[0], points[1]));

  function place(): void {
    const screen = points.map((p) => overlay.project(p));
    dots.forEach((dot, i) => {
      const at = screen[i];
      dot.style.display = at ? "" : "none";
      if (at) {
        dot.setAttribute("cx", at.x.toFixed(1));
        dot.setAttribute("cy", at.y.toFixed(1));
      }
    });
    const [a, b] = screen;
    const length = distance();
    if (a && b && length !== null) {
      line.style.display = "";
      line.setAttribute("x1", a.x.toFixed(1));
      line.setAttribute("y1", a.y.toFixed(1));
      line.setAttribute("x2", b.x.toFixed(1));
      line.setAttribute("y2", b.y.toFixed(1));
      label.style.display = "";
      label.textContent = format(length);
      label.style.left = `${((a.x + b.x) / 2).toFixed(1)}px`;
      label.style.top = `${((a.y + b.y) / 2).toFixed(1)}px`;
    } else {
      line.style.display = "none";
      label.style.display = "none";
    }
  }

  function set(next: Vec3[]): void {
    points = next;
    place();
    onChange?.(points);
  }

  const offUpdate = overlay.onUpdate(place);
  const detachClicks = onSurfaceClick(viewer, (hit) => {
    if (!hit) return;
    set(points.length >= 2 ? [hit.point] : [...points, hit.point]);
  });
  place();

  return {
    get points() {
      return points;
    },
    setFormat(next) {
      format = next;
      place();
    },
    clear() {
      set([]);
    },
    dispose() {
      detachClicks();
      offUpdate();
      overlay.dispose();
      root.remove();
      label.remove();
      points = [];
    },
  };
}
