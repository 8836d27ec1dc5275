import { describe, expect, it } from "vitest";
import { ADVICE, evaluateQualityGate } from "./quality-gate";

const good = { inputKind: "image" as const, registered: 24, total: 24, meanReprojectionError: 0.52, points: 2840 };

describe("the quality gate", () => {
  it("passes a scan with ≥ 80 % registered, ≤ 1.5 px and ≥ 2,000 points", () => {
    expect(evaluateQualityGate(good)).toEqual({ passed: true, failed: [], error: null, advice: null });
    expect(evaluateQualityGate({ ...good, registered: 20, total: 25, meanReprojectionError: 1.5, points: 2000 }).passed).toBe(true);
  });

  it("fails too few registered photos with overlap advice, and frames with move-slower advice", () => {
    const photos = evaluateQualityGate({ ...good, registered: 19, total: 24 });
    expect(photos).toMatchObject({ passed: false, failed: ["registration"], advice: ADVICE.registrationImages });
    expect(photos.error).toBe("Only 19 of 24 images could be placed (at least 80% are needed).");
    const video = evaluateQualityGate({ ...good, inputKind: "video", registered: 100, total: 200 });
    expect(video.advice).toBe(ADVICE.registrationVideo);
    expect(video.error).toContain("100 of 200 frames");
  });

  it("fails too few points with light-and-texture advice and a large error with steadiness advice", () => {
    expect(evaluateQualityGate({ ...good, points: 1999 })).toMatchObject({ failed: ["points"], advice: ADVICE.points });
    const blurry = evaluateQualityGate({ ...good, meanReprojectionError: 2.25 });
    expect(blurry).toMatchObject({ failed: ["reprojection"], advice: ADVICE.reprojection });
    expect(blurry.error).toContain("2.25 px");
  });

  it("explains an empty reconstruction by registration and points only", () => {
    const nothing = evaluateQualityGate({ inputKind: "image", registered: 0, total: 20, meanReprojectionError: Number.POSITIVE_INFINITY, points: 0 });
    expect(nothing.failed).toEqual(["registration", "points"]);
    expect(nothing.advice).toBe(`${ADVICE.registrationImages} ${ADVICE.points}`);
  });
});
