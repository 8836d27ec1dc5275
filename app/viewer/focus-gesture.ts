/**
 * Double-click (mouse) and double-tap (touch, pen) on the canvas, reported with page coordinates.
 * Touch browsers send no dblclick for taps on an element with `touch-action: none` (OrbitControls
 * sets it), so taps are paired here: two short taps close in time and place.
 */
const DOUBLE_TAP_MS = 350;
const TAP_MAX_MS = 300;
const TAP_SLOP_PX = 24;

export interface Tap {
  x: number;
  y: number;
  /** When the finger went down and came up (ms). */
  down: number;
  up: number;
}

/** Whether `second` completes a double tap begun by `first`. */
export function isDoubleTap(first: Tap | null, second: Tap): boolean {
  if (!first) return false;
  const short = (tap: Tap) => tap.up - tap.down <= TAP_MAX_MS;
  return short(first) && short(second) && second.down - first.up <= DOUBLE_TAP_MS && Math.hypot(second.x - first.x, second.y - first.y) <= TAP_SLOP_PX;
}

export function onDoubleActivate(canvas: HTMLElement, handler: (clientX: number, clientY: number) => void): () => void {
  let lastTap: Tap | null = null;
  const downs = new Map<number, { x: number; y: number; time: number }>();
  const onDblClick = (event: MouseEvent) => {
    event.preventDefault();
    handler(event.clientX, event.clientY);
  };
  const onDown = (event: PointerEvent) => {
    if (event.pointerType !== "mouse") downs.set(event.pointerId, { x: event.clientX, y: event.clientY, time: performance.now() });
  };
  const onUp = (event: PointerEvent) => {
    const down = downs.get(event.pointerId);
    downs.delete(event.pointerId);
    if (!down || downs.size > 0 || !event.isPrimary) {
      lastTap = null; // multi-finger gestures are not taps
      return;
    }
    const tap: Tap = { x: event.clientX, y: event.clientY, down: down.time, up: performance.now() };
    if (Math.hypot(tap.x - down.x, tap.y - down.y) > TAP_SLOP_PX) {
      lastTap = null;
      return;
    }
    if (isDoubleTap(lastTap, tap)) {
      lastTap = null;
      handler(tap.x, tap.y);
    } else {
      lastTap = tap;
    }
  };
  canvas.addEventListener("dblclick", onDblClick);
  canvas.addEventListener("pointerdown", onDown);
  canvas.addEventListener("pointerup", onUp);
  return () => {
    canvas.removeEventListener("dblclick", onDblClick);
    canvas.removeEventListener("pointerdown", onDown);
    canvas.removeEventListener("pointerup", onUp);
  };
}
