import { describe, expect, it } from "vitest";
import { convergencePoint, cropPoints, readDensePly, readVisibilityCounts, regionOfInterest } from "./dense-points";
import { encodeOrientedPointsPly } from "./splat-ply";

type Vec3 = [number, number, number];

describe("dense points", () => {
  it("reads COLMAP's fused.ply layout back", () => {
    const ply = encodeOrientedPointsPly([1, 2, 3, -1, 0.5, 4], [0, 0, 1, 1, 0, 0], [10, 20, 30, 200, 100, 0]);
    const points = readDensePly(new Uint8Array(ply));
    expect(points.count).toBe(2);
    expect(Array.from(points.positions)).toEqual([1, 2, 3, -1, 0.5, 4]);
    expect(Array.from(points.colors)).toEqual([10, 20, 30, 200, 100, 0]);
  });

  it("reads how many images saw each fused point", () => {
    const buffer = Buffer.alloc(8 + (4 + 8) + (4 + 12));
    buffer.writeBigUInt64LE(2n, 0);
    buffer.writeUInt32LE(2, 8);
    buffer.writeUInt32LE(3, 20);
    expect(Array.from(readVisibilityCounts(new Uint8Array(buffer)))).toEqual([2, 3]);
  });

  it("finds where an orbit of cameras looks, and keeps the subject, not the far background or points few images saw", () => {
    const subject: Vec3 = [0.3, -0.2, 1];
    const cameras = Array.from({ length: 12 }, (_, i) => {
      const a = (i / 12) * 2 * Math.PI;
      const centre: Vec3 = [subject[0] + 3 * Math.cos(a), subject[1] - 1, subject[2] + 3 * Math.sin(a)];
      return { centre, axis: [subject[0] - centre[0], subject[1] - centre[1], subject[2] - centre[2]] as Vec3 };
    });
    const found = convergencePoint(cameras)!;
    for (let k = 0; k < 3; k++) expect(found[k]).toBeCloseTo(subject[k], 6);
    const roi = regionOfInterest(cameras, [0, 0, 0]);
    expect(roi.radius).toBeCloseTo(0.6 * Math.hypot(3, 1), 5);
    // Three points: on the subject, far background, and on the subject but seen by one image only.
    const ply = encodeOrientedPointsPly([0.3, -0.2, 1, 20, 0, 0, 0.35, -0.2, 1], [0, 0, 1, 0, 0, 1, 0, 0, 1], [1, 1, 1, 2, 2, 2, 3, 3, 3]);
    const kept = cropPoints(readDensePly(new Uint8Array(ply)), Uint32Array.of(5, 5, 1), roi, 3);
    expect(kept.count).toBe(1);
    expect(kept.colors[0]).toBe(1);
  });

  it("has no convergence point for parallel cameras", () => {
    expect(convergencePoint([{ centre: [0, 0, 0], axis: [0, 0, 1] }, { centre: [1, 0, 0], axis: [0, 0, 1] }])).toBeNull();
  });
});
