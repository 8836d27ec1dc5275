import { describe, expect, it } from "vitest";
import { estimateNormals, nearestNeighbours, neighbourScales, smallestEigenvector } from "./point-geometry";

function bruteForce(positions: number[], k: number) {
  const n = positions.length / 3;
  return Array.from({ length: n }, (_, i) =>
    Array.from({ length: n }, (_, j) => j)
      .filter((j) => j !== i)
      .map((j) => (positions[i * 3] - positions[j * 3]) ** 2 + (positions[i * 3 + 1] - positions[j * 3 + 1]) ** 2 + (positions[i * 3 + 2] - positions[j * 3 + 2]) ** 2)
      .sort((a, b) => a - b)
      .slice(0, k),
  );
}

describe("nearest neighbours", () => {
  it("finds the same distances as a brute-force search on a random cloud", () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const positions = Array.from({ length: 600 * 3 }, (_, i) => (i % 3 === 2 ? random() * 0.1 : random() * 10));
    const found = nearestNeighbours(positions, 5);
    const expected = bruteForce(positions, 5);
    for (let i = 0; i < 600; i++) {
      expect(Array.from(found.distances2.subarray(i * 5, i * 5 + 5))).toEqual(expected[i].map((d) => expect.closeTo(d, 9)));
    }
  });

  it("reports what exists when there are fewer points than k", () => {
    const found = nearestNeighbours([0, 0, 0, 3, 4, 0], 3);
    expect(Array.from(found.indices)).toEqual([1, -1, -1, 0, -1, -1]);
    expect(Array.from(neighbourScales(found, 2))).toEqual([5, 5]);
  });
});

describe("normals", () => {
  it("finds the smallest eigenvector of a symmetric matrix", () => {
    const v = smallestEigenvector([4, 1, 2, 1, 3, 0.5, 2, 0.5, 5]);
    const m = [4, 1, 2, 1, 3, 0.5, 2, 0.5, 5];
    const mv = [0, 1, 2].map((r) => m[r * 3] * v[0] + m[r * 3 + 1] * v[1] + m[r * 3 + 2] * v[2]);
    const lambda = mv[0] / v[0];
    mv.forEach((x, i) => expect(x).toBeCloseTo(lambda * v[i], 8));
    expect(lambda).toBeLessThan(2.2);
  });

  it("are perpendicular to a plane of points and face the camera that saw them", () => {
    const positions: number[] = [];
    for (let x = 0; x < 8; x++) for (let y = 0; y < 8; y++) positions.push(x, y, 2);
    const fromBelow = estimateNormals(positions, nearestNeighbours(positions, 8), () => [3, 3, -10]);
    const fromAbove = estimateNormals(positions, nearestNeighbours(positions, 8), () => [3, 3, 10]);
    for (let i = 0; i < 64; i++) {
      expect(fromBelow[i * 3 + 2]).toBeCloseTo(-1, 6);
      expect(fromAbove[i * 3 + 2]).toBeCloseTo(1, 6);
    }
  });
});
