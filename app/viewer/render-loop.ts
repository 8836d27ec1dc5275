import type { WebGLRenderer } from "three";

export interface RenderLoop {
  /** Whether frames are currently being produced (false while the page is hidden or the canvas off screen). */
  readonly running: boolean;
  /** Resolves after the next rendered frame, or at once when the loop is paused. */
  nextFrame(): Promise<void>;
  /** Pauses the loop while someone else drives the renderer (a WebXR session); returns the release function. */
  hold(): () => void;
  dispose(): void;
}

/**
 * Drives `renderFrame` with requestAnimationFrame through the renderer, pausing while the
 * document is hidden or the canvas is scrolled out of view.
 */
export function startRenderLoop(renderer: WebGLRenderer, renderFrame: (deltaSeconds: number) => void): RenderLoop {
  const canvas = renderer.domElement;
  let visible = typeof IntersectionObserver === "undefined";
  let disposed = false;
  let holds = 0;
  let running = false;
  let last = 0;
  let waiters: Array<() => void> = [];

  const flushWaiters = () => {
    const pending = waiters;
    waiters = [];
    for (const resolve of pending) resolve();
  };

  const frame = (time: number) => {
    const delta = last ? Math.min((time - last) / 1000, 0.1) : 1 / 60;
    last = time;
    renderFrame(delta);
    flushWaiters();
  };

  const update = () => {
    const shouldRun = !disposed && holds === 0 && visible && document.visibilityState !== "hidden";
    if (shouldRun === running) return;
    running = shouldRun;
    last = 0;
    renderer.setAnimationLoop(shouldRun ? frame : null);
    if (!shouldRun) flushWaiters();
  };

  const observer =
    typeof IntersectionObserver === "undefined"
      ? null
      : new IntersectionObserver((entries) => {
          visible = entries.some((entry) => entry.isIntersecting);
          update();
        });
  observer?.observe(canvas);
  document.addEventListener("visibilitychange", update);
  update();

  return {
    get running() {
      return running;
    },
    nextFrame() {
      if (!running) return Promise.resolve();
      return new Promise<void>((resolve) => waiters.push(resolve));
    },
    hold() {
      holds++;
      update();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        holds--;
        update();
      };
    },
    dispose() {
      disposed = true;
      observer?.disconnect();
      document.removeEventListener("visibilitychange", update);
      update();
      flushWaiters();
    },
  };
}
