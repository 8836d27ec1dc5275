import type { Viewer } from "./index";

/**
 * Resolves with a JPEG of the next frame the viewer draws, read in the same task as the draw (the canvas
 * keeps no drawing buffer after it). Used for "Use this view as the thumbnail".
 */
export function captureFrame(viewer: Viewer): Promise<Blob> {
  return new Promise((resolve, reject) => {
    const onRender = () => {
      viewer.off("render", onRender);
      viewer.canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("The view could not be captured"))), "image/jpeg", 0.85);
    };
    viewer.on("render", onRender);
    viewer.stage.requestRender();
  });
}
