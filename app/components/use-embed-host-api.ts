import { useCallback, useEffect, useRef, useState, type PointerEvent } from "react";
import { embedEvent, parseEmbedCommand, type EmbedCommand, type EmbedEvent } from "~/lib/embed-messages";
import { viewForStop, type TourStop as TourStopView } from "~/lib/tour";
import type { Viewer, ViewerReadyEvent } from "~/viewer";
import { getCameraView, setCameraView } from "~/viewer/camera-view";

/**
 * The embed's side of the postMessage API (docs/embed-api.md, app/lib/embed-messages.ts): reads commands from
 * the window that frames the embed, drives the viewer, and posts events back. A frame without a parent (the
 * embed opened on its own) posts nothing.
 */
export interface TourStop extends TourStopView {
  id: string;
  title: string;
}

const DEFAULT_STEP_MS = 4000;
const CLICK_SLOP_PX = 6;
const CLICK_MAX_MS = 500;

function framed(): boolean {
  return typeof window !== "undefined" && window.parent !== window;
}

export function postToHost(event: EmbedEvent) {
  if (framed()) window.parent.postMessage(embedEvent(event), "*"); // any origin may embed us; events hold nothing private
}

export function useEmbedHostApi({
  itemId,
  tour,
  onLoad,
}: {
  /** The model on show, or null when the page could not show one. */
  itemId: string | null;
  tour: TourStop[];
  /** The `load` command: show another model in this frame. */
  onLoad: (itemId: string) => void;
}) {
  const viewerRef = useRef<Viewer | null>(null);
  const tourTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [tourStep, setTourStep] = useState<{ index: number; title: string } | null>(null);
  const pointerDown = useRef<{ x: number; y: number; at: number } | null>(null);
  const latest = useRef({ itemId, tour, onLoad });
  latest.current = { itemId, tour, onLoad };

  const stopTour = useCallback((completed: boolean) => {
    if (!tourTimer.current) return;
    clearTimeout(tourTimer.current);
    tourTimer.current = null;
    setTourStep(null);
    if (latest.current.itemId) postToHost({ type: "tourEnd", itemId: latest.current.itemId, completed });
  }, []);

  const playTour = useCallback(
    (viewer: Viewer, command: Extract<EmbedCommand, { type: "playTour" }>) => {
      const id = latest.current.itemId!;
      const stops = latest.current.tour;
      if (stops.length === 0) return postToHost({ type: "error", itemId: id, message: "This model has no tour: it has no annotations." });
      stopTour(false);
      const stepMs = command.stepMs ?? DEFAULT_STEP_MS;
      const addons = import("~/viewer/addons");
      const show = (index: number) => {
        if (index >= stops.length) {
          tourTimer.current = setTimeout(() => stopTour(true), 0);
          return;
        }
        const stop = stops[index];
        const view = viewForStop(stop, getCameraView(viewer.stage));
        void addons.then(({ flyTo }) => flyTo(viewer, view), () => setCameraView(viewer.stage, view));
        setTourStep({ index, title: stop.title });
        postToHost({ type: "tourStep", itemId: id, index, annotationId: stop.id, title: stop.title });
        tourTimer.current = setTimeout(() => show(index + 1), stepMs);
      };
      show(Math.min(command.from ?? 0, stops.length - 1));
    },
    [stopTour],
  );

  useEffect(() => {
    const run = (command: EmbedCommand) => {
      const id = latest.current.itemId;
      if (command.type === "load") return latest.current.onLoad(command.itemId);
      const viewer = viewerRef.current;
      if (!viewer || !id) {
        const requestId = "requestId" in command ? command.requestId : undefined;
        return postToHost({ type: "error", itemId: id, message: `${command.type} needs a model on show: wait for the ready event.`, requestId });
      }
      if (command.type === "setCamera") {
        stopTour(false);
        setCameraView(viewer.stage, { position: command.position, target: command.target });
        return postToHost({ type: "camera", itemId: id, ...getCameraView(viewer.stage), requestId: command.requestId });
      }
      if (command.type === "getCamera") return postToHost({ type: "camera", itemId: id, ...getCameraView(viewer.stage), requestId: command.requestId });
      if (command.type === "playTour") return playTour(viewer, command);
      stopTour(false);
    };
    const onMessage = (event: MessageEvent) => {
      if (!framed() || event.source !== window.parent) return; // only the page that frames us drives us
      const parsed = parseEmbedCommand(event.data);
      if (!parsed) return; // another script's message
      if (!parsed.ok) return postToHost({ type: "error", itemId: latest.current.itemId, message: parsed.message });
      run(parsed.command);
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [playTour, stopTour]);

  useEffect(() => () => stopTour(false), [itemId, stopTour]);

  const onViewer = useCallback((viewer: Viewer) => {
    viewerRef.current = viewer;
    return () => {
      if (viewerRef.current === viewer) viewerRef.current = null;
    };
  }, []);

  const onReady = useCallback((info: ViewerReadyEvent) => {
    const id = latest.current.itemId;
    if (id) postToHost({ type: "ready", itemId: id, format: info.format, loadMs: info.loadMs });
  }, []);

  const onError = useCallback((error: Error) => postToHost({ type: "error", itemId: latest.current.itemId, message: error.message }), []);

  // A click is a press and release close together in place and time; a drag orbits the camera instead.
  const pointerHandlers = {
    onPointerDown: (event: PointerEvent<HTMLElement>) => {
      pointerDown.current = { x: event.clientX, y: event.clientY, at: event.timeStamp };
      stopTour(false); // the visitor takes over
    },
    onPointerUp: (event: PointerEvent<HTMLElement>) => {
      const down = pointerDown.current;
      pointerDown.current = null;
      const id = latest.current.itemId;
      if (!down || !id) return;
      const moved = Math.hypot(event.clientX - down.x, event.clientY - down.y);
      if (moved > CLICK_SLOP_PX || event.timeStamp - down.at > CLICK_MAX_MS) return;
      const box = event.currentTarget.getBoundingClientRect();
      const x = Math.min(1, Math.max(0, (event.clientX - box.left) / Math.max(1, box.width)));
      const y = Math.min(1, Math.max(0, (event.clientY - box.top) / Math.max(1, box.height)));
      postToHost({ type: "click", itemId: id, x: Number(x.toFixed(4)), y: Number(y.toFixed(4)) });
    },
  };

  return { onViewer, onReady, onError, pointerHandlers, tourStep };
}
