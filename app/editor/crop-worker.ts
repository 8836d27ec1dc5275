/**
 * The Web Worker of the crop box's "Delete outside box" (issue 35 item 8): finds the kept splats
 * outside the box off the page's thread, posting its progress after each slice. Started and ended
 * (cancel = terminate) by crop-job.ts, one worker per crop.
 */
import { outsideBoxInChunks } from "./crop-selection";
import type { CropBox } from "./selection";

export interface CropRequest {
  positions: Float32Array;
  deleted: Uint8Array;
  box: CropBox;
}

export type CropReply =
  | { type: "progress"; fraction: number }
  | { type: "done"; indices: Uint32Array; ms: number }
  | { type: "error"; message: string };

const reply = (message: CropReply, transfer: Transferable[] = []) => self.postMessage(message, { transfer });

self.addEventListener("message", (event: MessageEvent<CropRequest>) => {
  const { positions, deleted, box } = event.data;
  const started = performance.now();
  outsideBoxInChunks({ positions, box, deleted, onProgress: (fraction) => reply({ type: "progress", fraction }) }).then(
    (picked) => {
      const indices = Uint32Array.from(picked);
      reply({ type: "done", indices, ms: performance.now() - started }, [indices.buffer]);
    },
    (error: unknown) => reply({ type: "error", message: (error as Error).message }),
  );
});
