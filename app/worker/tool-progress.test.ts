import { describe, expect, it } from "vitest";
import { ffmpegFrameProgressParser, mappingProgressParser, parseFeatureProgress, parseMatchingProgress, parseTrainerProgress, withinRange } from "./tool-progress";

describe("progress from the tools' own output", () => {
  it("reads COLMAP's feature extractor", () => {
    expect(parseFeatureProgress("Processed file [12/24]")).toBe(0.5);
    expect(parseFeatureProgress("  Features:        1489")).toBeNull();
  });

  it("reads exhaustive blocks row by row, sequential images and imported pair blocks", () => {
    expect(parseMatchingProgress("Matching block [1/3, 1/3] in 12.3s")).toBeCloseTo(1 / 9);
    expect(parseMatchingProgress("Matching block [2/3, 3/3] in 12.3s")).toBeCloseTo(6 / 9);
    expect(parseMatchingProgress("Matching block [3/3, 3/3] in 2.1s")).toBe(1);
    expect(parseMatchingProgress("Matching image [30/120] in 0.4s")).toBe(0.25);
    expect(parseMatchingProgress("Matching block [4/8] in 3.0s")).toBe(0.5);
    expect(parseMatchingProgress("Elapsed time: 0.759 [minutes]")).toBeNull();
  });

  it("places a tool's progress within its part of a stage", () => {
    const second = withinRange(parseFeatureProgress, 0.25, 0.75);
    expect(second("Processed file [0/10]")).toBe(0.25);
    expect(second("Processed file [5/10]")).toBe(0.5);
    expect(second("Processed file [10/10]")).toBe(0.75);
    expect(second("  Features:        1489")).toBeNull();
  });

  it("counts registered images in the mapper's output", () => {
    const parse = mappingProgressParser(24);
    expect(parse("Registering image #10 (3)")).toBe(0.125);
    expect(parse("Registering image #7 (24)")).toBe(1);
    expect(parse("Bundle adjustment report")).toBeNull();
  });

  it("reads ffmpeg's frame counter and a trainer's step counter or percentage", () => {
    expect(ffmpegFrameProgressParser(200)("frame=50")).toBe(0.25);
    expect(ffmpegFrameProgressParser(200)("frame=  400 fps=25")).toBe(1);
    expect(parseTrainerProgress("Step 7000/30000 loss=0.02")).toBeCloseTo(7000 / 30000);
    expect(parseTrainerProgress("training: 45%|████▌     |")).toBe(0.45);
    expect(parseTrainerProgress("loading images")).toBeNull();
  });
});
