import { describe, expect, it } from "vitest";
import { CAPTURE_RIGS, facadeRig, type CaptureRig } from "../../tests/setup/capture-rigs";
import { cropPoints, isInsideRegion, readDensePly, readVisibilityCounts, regionOfInterest, type DensePoints } from "./dense-points";
import { encodeOrientedPointsPly } from "~/formats/splat-ply";

/** The rig's points as fused points whose colour is their index (24 bits), so a crop's survivors can be named. */
function taggedPoints(rig: CaptureRig): DensePoints {
  const count = rig.positions.length / 3;
  const colors = new Uint8Array(count * 3);
  for (let i = 0; i < count; i++) colors.set([i & 255, (i >> 8) & 255, (i >> 16) & 255], i * 3);
  return { count, positions: rig.positions, normals: new Float32Array(count * 3), colors };
}

const keptIndices = (kept: DensePoints) => new Set(Array.from({ length: kept.count }, (_, i) => kept.colors[i * 3] | (kept.colors[i * 3 + 1] << 8) | (kept.colors[i * 3 + 2] << 16)));
const countIn = ([start, end]: [number, number], keep: (i: number) => boolean) => Array.from({ length: end - start }, (_, k) => start + k).filter(keep).length;

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
});

// Issue 38 item 5: the region of interest of captures that are not orbits. Each rig (tests/setup/capture-rigs.ts)
// holds the surface its cameras captured (every point seen by ≥ 3 of them), 15 far-away points seen by 1–2
// images, 15 far-away points seen by 3–6 (sparse background), and 15 points behind every camera.
describe("the region of interest", () => {
  for (const makeRig of CAPTURE_RIGS) {
    const rig = makeRig();
    it(`of the ${rig.name} capture keeps ≥ 99 % of its surface, no far-away point or one behind the cameras, in a box under 1.5× the surface's diagonal`, () => {
      const region = regionOfInterest({ positions: rig.positions, visibility: rig.visibility, cameras: rig.cameras, minViews: 3 });
      expect(region).not.toBeNull();
      const kept = keptIndices(cropPoints({ points: taggedPoints(rig), visibility: rig.visibility, region: region!, cameras: rig.cameras, minViews: 3 }));
      const inBox = (i: number) => isInsideRegion(region!, rig.positions[i * 3], rig.positions[i * 3 + 1], rig.positions[i * 3 + 2]);
      const surfaceKept = countIn([0, rig.surface], (i) => kept.has(i)) / rig.surface;
      const diagonalRatio = (2 * region!.radius) / rig.surfaceDiagonal;
      const far = [rig.farFewViews, rig.farSparse];
      console.warn(
        `[region] ${rig.name}: ${(surfaceKept * 100).toFixed(2)} % of ${rig.surface} surface points kept (bound ≥ 99 %); far-away kept ${far.map((r) => countIn(r, (i) => kept.has(i))).join(" + ")} of 30, ` +
          `behind the cameras kept ${countIn(rig.behind, (i) => kept.has(i))} of 15 (bound 0; inside the box alone: far ${far.map((r) => countIn(r, inBox)).join(" + ")}, behind ${countIn(rig.behind, inBox)}); ` +
          `box diagonal ${(2 * region!.radius).toFixed(2)} = ${diagonalRatio.toFixed(3)}× the surface's ${rig.surfaceDiagonal.toFixed(2)} (bound 1.5)`,
      );
      expect(surfaceKept).toBeGreaterThanOrEqual(0.99);
      for (const range of [...far, rig.behind]) expect(countIn(range, (i) => kept.has(i))).toBe(0);
      // The mesh and the splat are cut by the box alone: it must leave the far-away points out by itself.
      for (const range of far) expect(countIn(range, inBox)).toBe(0);
      expect(diagonalRatio).toBeLessThanOrEqual(1.5);
    });
  }

  it("turns with a facade: the box's sides run along the wall, whatever its heading", () => {
    // The facade rig's wall runs at 35° from the model's x axis (its normal at 35° from z).
    const rig = facadeRig();
    const region = regionOfInterest({ positions: rig.positions, visibility: rig.visibility, cameras: rig.cameras, minViews: 3 })!;
    const heading = (Math.atan2(region.axes[0][2], region.axes[0][0]) * 180) / Math.PI;
    // The wall's direction is (cos 35°, 0, −sin 35°): the box's first axis at −35° or, turned a quarter, at 55°.
    const off = Math.min(Math.abs(heading + 35), Math.abs(heading - 55));
    console.warn(`[region] facade box heading ${heading.toFixed(1)}°: ${off.toFixed(2)}° from the wall's (bound 2°, the turns are 3° apart)`);
    expect(off).toBeLessThanOrEqual(2);
    expect(region.axes[1]).toEqual([0, 1, 0]);
  });

  it("is null when no point was seen by enough images, and without visibility counts every point counts as seen", () => {
    const cameras = [{ centre: [0, 0, 0] as [number, number, number], axis: [0, 0, 1] as [number, number, number] }];
    const positions = Float32Array.from({ length: 300 }, (_, i) => (i % 3 === 2 ? 5 : ((i * 7919) % 100) / 50 - 1));
    expect(regionOfInterest({ positions, visibility: new Uint32Array(100).fill(2), cameras, minViews: 3 })).toBeNull();
    const region = regionOfInterest({ positions, visibility: null, cameras, minViews: 3 })!;
    expect(region.min[2]).toBeLessThanOrEqual(5);
    expect(region.max[2]).toBeGreaterThanOrEqual(5);
  });
});
