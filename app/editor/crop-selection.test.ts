import { describe, expect, it } from "vitest";
import { findOutsideBox } from "./crop-job";
import { outsideBoxInChunks } from "./crop-selection";
import { outsideBox, type CropBox } from "./selection";

/** A seeded random cloud of `count` centres in [-1, 1]³, about a fifth of them deleted. */
function randomCloud(count: number, seed = 7) {
  let state = seed;
  const random = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const positions = Float32Array.from({ length: count * 3 }, () => random() * 2 - 1);
  const deleted = Uint8Array.from({ length: count }, () => (random() < 0.2 ? 1 : 0));
  return { positions, deleted };
}

const box: CropBox = { min: [-0.5, -0.8, -1], max: [0.6, 0.7, 0.25] };

describe("outsideBoxInChunks", () => {
  it("finds outsideBox's indices, in order, reporting progress after each slice up to 1", async () => {
    const { positions, deleted } = randomCloud(150_000);
    const expected = outsideBox(positions, box, deleted);
    expect(expected.length).toBeGreaterThan(50_000);
    for (const chunk of [1_000, 16_384, 150_000, 1_000_000]) {
      const progress: number[] = [];
      let pauses = 0;
      const picked = await outsideBoxInChunks({ positions, box, deleted, chunk, onProgress: (f) => progress.push(f), pause: async () => void pauses++ });
      expect(picked).toEqual(expected);
      expect(progress).toHaveLength(Math.ceil(150_000 / chunk));
      expect(progress.every((f, i) => f > 0 && (i === 0 || f > progress[i - 1]))).toBe(true);
      expect(progress.at(-1)).toBe(1);
      expect(pauses).toBe(progress.length - 1);
    }
  });

  it("reports 1 for an empty cloud and stops with an AbortError between slices", async () => {
    const progress: number[] = [];
    expect(await outsideBoxInChunks({ positions: new Float32Array(0), box, deleted: new Uint8Array(0), onProgress: (f) => progress.push(f) })).toEqual([]);
    expect(progress).toEqual([1]);

    const { positions, deleted } = randomCloud(10_000);
    const job = new AbortController();
    const seen: number[] = [];
    const run = outsideBoxInChunks({ positions, box, deleted, chunk: 1_000, onProgress: (f) => (seen.push(f), f >= 0.3 && job.abort()), signal: job.signal });
    await expect(run).rejects.toMatchObject({ name: "AbortError" });
    expect(seen).toEqual([0.1, 0.2, 0.3]);
  });
});

describe("findOutsideBox without a Worker (the main-thread fallback)", () => {
  it("gives outsideBox's indices with progress up to 1, and measures the crop", async () => {
    expect(typeof Worker).toBe("undefined");
    const { positions, deleted } = randomCloud(40_000, 11);
    const progress: number[] = [];
    const picked = await findOutsideBox({ positions, box, deleted, onProgress: (f) => progress.push(f), signal: new AbortController().signal });
    expect([...picked]).toEqual(outsideBox(positions, box, deleted));
    expect(progress).toEqual([16_384 / 40_000, 32_768 / 40_000, 1]);
    const [entry] = performance.getEntriesByName("scanroom:crop-selection").slice(-1) as PerformanceMeasure[];
    expect(entry.detail).toMatchObject({ splats: 40_000, outside: picked.length, where: "main thread", progressUpdates: 3 });
  });
});
