/**
 * <AnnotatedViewer>: the item viewer with its annotations as hotspots (click one to read it), a
 * guided tour through them (previous / next, the camera flies to each stop), and the measuring tool
 * (two clicks on the model → the distance in the item's units). The editor at /item/{id}/edit also
 * uses it to place hotspots (onPick). The add-ons load lazily with the viewer (app/viewer/addons.ts).
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ComponentProps, type CSSProperties } from "react";
import type { AnnotationDto } from "~/domain/annotations.server";
import type { ViewerSettings } from "~/domain/viewer-settings";
import { formatLength, modelDistance, toRealLength } from "~/lib/measure";
import { stepTour, tourLabel, viewForStop, type TourStep } from "~/lib/tour";
import type { Viewer } from "~/viewer";
import type { Hotspots, SurfaceHit } from "~/viewer/addons";
import { getCameraView } from "~/viewer/camera-view";
import { AnnotationCard } from "./annotation-card";
import { ItemViewer } from "./item-viewer";

type Addons = typeof import("~/viewer/addons");
export type ViewerAnnotation = Pick<AnnotationDto, "id" | "title" | "body" | "image_url" | "position" | "normal" | "camera">;

type ItemViewerProps = ComponentProps<typeof ItemViewer>;

/** ItemViewer's props (passed through), plus annotations, selection, placing and measuring. */
export interface AnnotatedViewerProps extends Omit<ItemViewerProps, "item"> {
  item: ItemViewerProps["item"] & { settings?: Pick<ViewerSettings, "units" | "meters_per_unit"> };
  annotations: readonly ViewerAnnotation[];
  /** The open annotation, when the page controls it (the editor); otherwise kept here. */
  selectedId?: string | null;
  onSelect?: (id: string | null) => void;
  /** While set, a click on the model's surface calls it (placing a hotspot) instead of measuring. */
  onPick?: ((hit: SurfaceHit) => void) | null;
  /** Called with the distance of a finished measurement in model units, or null. */
  onMeasure?: (modelLength: number | null) => void;
}

const styles = {
  // Fills its positioned parent, as every host does (item page frame, editor preview, embed, full screen).
  root: { position: "absolute", inset: 0, minHeight: 240 },
  layer: { position: "absolute", inset: 0, pointerEvents: "none", overflow: "hidden" },
  tools: { position: "absolute", top: 12, right: 12, display: "flex", gap: 8, zIndex: 2 },
  tool: {
    border: "1px solid rgba(255,255,255,0.35)",
    borderRadius: 6,
    padding: "6px 10px",
    background: "rgba(28,29,34,0.85)",
    color: "#fff",
    font: "600 13px/1.2 system-ui, sans-serif",
    cursor: "pointer",
  },
  toolOn: { background: "#4f8cff", borderColor: "#4f8cff" },
  status: {
    position: "absolute",
    top: 56,
    left: "50%",
    transform: "translateX(-50%)",
    maxWidth: "calc(100% - 24px)",
    textAlign: "center",
    margin: 0,
    padding: "6px 10px",
    borderRadius: 6,
    background: "rgba(28,29,34,0.85)",
    color: "#fff",
    font: "13px/1.4 system-ui, sans-serif",
    zIndex: 2,
  },
  tourBar: { display: "flex", alignItems: "center", gap: 8, marginTop: 10, flexWrap: "wrap" },
  tourButton: { border: "1px solid #cbd5e1", borderRadius: 6, padding: "4px 10px", background: "#fff", cursor: "pointer", font: "13px system-ui, sans-serif" },
  tourLabel: { flex: 1, fontSize: 13, color: "#4b5563" },
} satisfies Record<string, CSSProperties>;

/** Keeps the latest value of a prop for callbacks registered once (viewer add-ons). */
function useLatest<T>(value: T) {
  const ref = useRef(value);
  useEffect(() => {
    ref.current = value;
  });
  return ref;
}

export function AnnotatedViewer({
  item,
  annotations,
  selectedId,
  onSelect,
  onPick,
  onMeasure,
  onViewer,
  ...viewerProps
}: AnnotatedViewerProps) {
  const layerRef = useRef<HTMLDivElement>(null);
  const [viewer, setViewer] = useState<Viewer | null>(null);
  const [addons, setAddons] = useState<Addons | null>(null);
  const [hotspots, setHotspots] = useState<Hotspots | null>(null);
  const [ownSelection, setOwnSelection] = useState<string | null>(null);
  const [tourIndex, setTourIndex] = useState<number | null>(null);
  const [measuring, setMeasuring] = useState(false);
  const [measured, setMeasured] = useState<number | null>(null);

  const selected = selectedId === undefined ? ownSelection : selectedId;
  const latest = useLatest({ annotations, onSelect, onPick, onMeasure, onViewer, tourIndex, controlled: selectedId !== undefined });
  const units = item.settings?.units ?? "m";
  const metersPerUnit = item.settings?.meters_per_unit ?? null;
  const format = useCallback(
    (modelLength: number) => formatLength(toRealLength({ modelLength, metersPerUnit, unit: units }), units),
    [metersPerUnit, units],
  );
  const formatRef = useLatest(format);

  const select = useCallback(
    (id: string | null) => {
      if (!latest.current.controlled) setOwnSelection(id);
      latest.current.onSelect?.(id);
    },
    [latest],
  );

  const handleViewer = useCallback(
    (next: Viewer) => {
      setViewer(next);
      const detach = latest.current.onViewer?.(next);
      return () => {
        detach?.();
        setViewer((current) => (current === next ? null : current));
      };
    },
    [latest],
  );

  useEffect(() => {
    if (!viewer || addons) return;
    let live = true;
    import("~/viewer/addons").then(
      (module) => live && setAddons(module),
      (error: unknown) => console.warn("[viewer] add-ons failed to load", error),
    );
    return () => {
      live = false;
    };
  }, [viewer, addons]);

  // Hotspots: one numbered marker per annotation; a click opens it (and moves a running tour there).
  useEffect(() => {
    const layer = layerRef.current;
    if (!viewer || !addons || !layer) return;
    const created = addons.createHotspots({
      viewer,
      layer,
      onSelect: (id) => {
        const index = latest.current.annotations.findIndex((a) => a.id === id);
        if (latest.current.tourIndex !== null && index >= 0) setTourIndex(index);
        else select(id);
      },
    });
    setHotspots(created);
    return () => {
      created.dispose();
      setHotspots(null);
    };
  }, [viewer, addons, latest, select]);

  useEffect(() => {
    hotspots?.setAnnotations(annotations);
  }, [hotspots, annotations]);

  useEffect(() => {
    hotspots?.setActive(selected);
  }, [hotspots, selected]);

  // Placing (the editor): surface clicks go to onPick.
  const picking = Boolean(onPick);
  useEffect(() => {
    hotspots?.setInteractive(!picking && !measuring);
  }, [hotspots, picking, measuring]);
  useEffect(() => {
    if (!viewer || !addons || !picking) return;
    return addons.onSurfaceClick(viewer, (hit) => {
      if (hit) latest.current.onPick?.(hit);
    });
  }, [viewer, addons, picking, latest]);

  // Measuring: two clicks on the surface; paused while placing.
  const measureTool = useRef<ReturnType<Addons["createMeasureTool"]> | null>(null);
  useEffect(() => {
    const layer = layerRef.current;
    if (!viewer || !addons || !layer || !measuring || picking) return;
    const tool = addons.createMeasureTool({
      viewer,
      layer,
      format: formatRef.current,
      onChange: (points) => setMeasured(points.length === 2 ? modelDistance(points[0], points[1]) : null),
    });
    measureTool.current = tool;
    return () => {
      tool.dispose();
      measureTool.current = null;
      setMeasured(null);
    };
  }, [viewer, addons, measuring, picking, formatRef]);

  useEffect(() => {
    measureTool.current?.setFormat(format);
  }, [format]);

  useEffect(() => {
    latest.current.onMeasure?.(measured);
  }, [measured, latest]);

  // The tour: each step opens its annotation and flies the camera to its view.
  useEffect(() => {
    if (tourIndex === null || !viewer || !addons) return;
    const stop = latest.current.annotations[tourIndex];
    if (!stop) {
      setTourIndex(stepTour(tourIndex, latest.current.annotations.length, "last"));
      return;
    }
    select(stop.id);
    void addons.flyTo(viewer, viewForStop(stop, getCameraView(viewer.stage)));
  }, [tourIndex, viewer, addons, latest, select]);

  const step = (to: TourStep) => setTourIndex((current) => stepTour(current, annotations.length, to));
  const endTour = () => {
    setTourIndex(null);
    select(null);
  };

  const openIndex = useMemo(() => annotations.findIndex((a) => a.id === selected), [annotations, selected]);
  const open = openIndex >= 0 ? annotations[openIndex] : null;
  const ready = viewer !== null && addons !== null;

  return (
    <div className="annotated-viewer" style={styles.root}>
      <ItemViewer {...viewerProps} item={item} onViewer={handleViewer} />
      <div ref={layerRef} className="annotated-viewer-layer" style={styles.layer} />
      {ready ? (
        <div className="annotated-viewer-tools" style={styles.tools}>
          {annotations.length > 0 ? (
            <button type="button" style={{ ...styles.tool, ...(tourIndex !== null ? styles.toolOn : {}) }} onClick={() => (tourIndex === null ? step("first") : endTour())}>
              {tourIndex === null ? "Play tour" : "End tour"}
            </button>
          ) : null}
          <button
            type="button"
            style={{ ...styles.tool, ...(measuring ? styles.toolOn : {}) }}
            aria-pressed={measuring}
            disabled={picking}
            onClick={() => setMeasuring((on) => !on)}
          >
            Measure
          </button>
        </div>
      ) : null}
      {picking ? (
        <p style={styles.status} role="status">
          Click the model where the annotation goes.
        </p>
      ) : measuring ? (
        <p style={styles.status} role="status" data-testid="measure-result">
          {measured === null ? "Click two points on the model to measure." : `Distance: ${format(measured)}`}
          {measured !== null && metersPerUnit === null ? " (scale not set by the owner: 1 model unit = 1 m)" : null}
        </p>
      ) : null}
      {open ? (
        <AnnotationCard annotation={open} number={openIndex + 1} onClose={tourIndex === null ? () => select(null) : endTour}>
          {tourIndex !== null ? (
            <div style={styles.tourBar} role="group" aria-label="Tour">
              <button type="button" style={styles.tourButton} onClick={() => step("previous")} disabled={tourIndex === 0}>
                ‹ Previous
              </button>
              <span style={styles.tourLabel} aria-live="polite">
                {tourLabel(tourIndex, annotations.length)}
              </span>
              <button type="button" style={styles.tourButton} onClick={() => step("next")} disabled={tourIndex >= annotations.length - 1}>
                Next ›
              </button>
            </div>
          ) : null}
        </AnnotationCard>
      ) : null}
    </div>
  );
}
