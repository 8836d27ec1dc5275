import { describe, expect, it } from "vitest";
import { holdoutFrames, validationFrames } from "../frame-selection";
import { mappingKeyframes, siftOptions } from "./colmap.server";
import { MAX_DEPTH_VIEWS, viewsLeftOutOfStereo } from "./dense.server";

/** Frame names as the frames stage writes them, in capture order. */
const frameNames = (count: number) => Array.from({ length: count }, (_, i) => `frame-${String(i + 1).padStart(4, "0")}.jpg`);

describe("the views dense stereo measures", () => {
  it("a 180 s video's ~290 frames: an even spread of 100, never a held-out one", () => {
    const frames = frameNames(291);
    const keptOut = [...holdoutFrames(frames), ...validationFrames(frames)];
    const leftOut = viewsLeftOutOfStereo(frames, keptOut);
    const measured = frames.filter((name) => !leftOut.includes(name));
    expect(measured).toHaveLength(MAX_DEPTH_VIEWS);
    for (const name of keptOut) expect(leftOut).toContain(name);
    // Evenly spread over the capture: no stretch of more than 4 frames without a depth map (291 − 73 kept out = 218 for 100).
    const positions = measured.map((name) => frames.indexOf(name));
    const gaps = positions.slice(1).map((p, i) => p - positions[i]);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(4);
    expect(positions[0]).toBeLessThanOrEqual(3);
    expect(positions.at(-1)).toBeGreaterThanOrEqual(frames.length - 4);
  });

  it("a 22-photo set: every photo but the held-out ones", () => {
    const frames = frameNames(22);
    const keptOut = [...holdoutFrames(frames), ...validationFrames(frames)];
    expect(viewsLeftOutOfStereo(frames, keptOut).sort()).toEqual([...keptOut].sort());
  });

  it("names in any order: the spread follows capture order, the list keeps the caller's order", () => {
    const frames = frameNames(30).reverse();
    const leftOut = viewsLeftOutOfStereo(frames, [], 10);
    expect(leftOut).toHaveLength(20);
    expect(leftOut).toEqual(frames.filter((name) => leftOut.includes(name)));
    expect(frames.filter((name) => !leftOut.includes(name)).reverse()).toEqual(["02", "05", "08", "11", "14", "17", "20", "23", "26", "29"].map((n) => `frame-00${n}.jpg`));
  });
});

describe("the frames the mapper places first", () => {
  it("a video: every other frame, every held-out and validation frame among them", () => {
    const frames = frameNames(291);
    const keyframes = mappingKeyframes("video", frames)!;
    expect(keyframes).toHaveLength(146);
    expect(keyframes.slice(0, 3)).toEqual(["frame-0001.jpg", "frame-0003.jpg", "frame-0005.jpg"]);
    for (const name of [...holdoutFrames(frames), ...validationFrames(frames)]) expect(keyframes).toContain(name);
  });

  it("photos: all of them in one mapping", () => {
    expect(mappingKeyframes("image", frameNames(22))).toBeNull();
  });
});

describe("where SIFT starts looking", () => {
  it("frames at the full working size (a 1080p video's): from their own size; smaller frames and photos: from the upsampled copy", () => {
    expect(siftOptions("video", 1600)).toEqual({ maxFeatures: 2048, firstOctave: 0 });
    expect(siftOptions("video", 960)).toEqual({ maxFeatures: 2048, firstOctave: -1 });
    expect(siftOptions("image", 1600)).toEqual({ maxFeatures: 4096, firstOctave: -1 });
  });
});
