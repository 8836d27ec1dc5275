import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import type { ModelDownload } from "./download";
import { receiveDownload } from "./streamed-load";
import { SHARED_DATA } from "../../tests/setup/shared-data";

const DATA = SHARED_DATA;
const guitar = new Uint8Array(readFileSync(path.join(DATA, "splats/guitar.ply")));

/** A download that delivers `bytes` in `chunks` pieces, `chunkMs` apart (fake timers drive it). */
function fakeDownload(bytes: Uint8Array, chunks: number, chunkMs: number): ModelDownload {
  const listeners = new Set<() => void>();
  let loaded = 0;
  const done = new Promise<ArrayBuffer>((resolve) => {
    const step = Math.ceil(bytes.length / chunks);
    const tick = () => {
      loaded = Math.min(bytes.length, loaded + step);
      for (const listener of [...listeners]) listener();
      if (loaded < bytes.length) setTimeout(tick, chunkMs);
      else resolve(bytes.slice().buffer);
    };
    setTimeout(tick, chunkMs);
  });
  return {
    done,
    get loaded() {
      return loaded;
    },
    total: bytes.length,
    received: () => bytes.subarray(0, loaded),
    onData(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

describe("receiveDownload", () => {
  it("hands over the first splats of a slow .ply download, then the whole file", async () => {
    vi.useFakeTimers();
    try {
      const previews: Array<{ splats: number; loaded: number }> = [];
      const formats: string[] = [];
      const result = receiveDownload({
        download: fakeDownload(guitar, 20, 500), // 10 s for the file
        fileName: "model.ply",
        isCurrent: () => true,
        onFormat: (format) => formats.push(format),
        showPreview: async (preview) => {
          previews.push({ splats: preview.splats, loaded: preview.loaded });
        },
      });
      await vi.runAllTimersAsync();
      expect((await result).byteLength).toBe(guitar.length);
      expect(formats).toEqual(["ply"]);
      expect(previews).toHaveLength(1);
      expect(previews[0].loaded).toBeGreaterThanOrEqual(guitar.length * 0.25);
      expect(previews[0].loaded).toBeLessThan(guitar.length * 0.5);
      expect(previews[0].splats).toBeGreaterThan(20_000);
    } finally {
      vi.useRealTimers();
    }
  });

  it("skips the preview when the rest of the download is quick anyway", async () => {
    vi.useFakeTimers();
    try {
      const showPreview = vi.fn(async () => undefined);
      const result = receiveDownload({ download: fakeDownload(guitar, 20, 10), fileName: "model.ply", isCurrent: () => true, showPreview });
      await vi.runAllTimersAsync();
      await result;
      expect(showPreview).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });
});
