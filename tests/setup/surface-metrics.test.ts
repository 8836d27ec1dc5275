import { describe, expect, it } from "vitest";
import { depthBuffer, maskedPsnr, pointTriangleDistance, sampleSurface, surfaceAgreement, visibleFromAny, type ViewCamera } from "./surface-metrics";

/** A UV sphere as a triangle soup. */
function sphere(radius: number, centre: [number, number, number], rings = 16, segments = 32, keep: (y: number) => boolean = () => true): Float32Array {
  const at = (i: number, j: number) => {
    const theta = (Math.PI * i) / rings, phi = (2 * Math.PI * j) / segments;
    return [centre[0] + radius * Math.sin(theta) * Math.cos(phi), centre[1] + radius * Math.cos(theta), centre[2] + radius * Math.sin(theta) * Math.sin(phi)];
  };
  const out: number[] = [];
  for (let i = 0; i < rings; i++)
    for (let j = 0; j < segments; j++) {
      const a = at(i, j), b = at(i + 1, j), c = at(i + 1, j + 1), d = at(i, j + 1);
      if (!keep((a[1] + c[1]) / 2 - centre[1])) continue;
      out.push(...a, ...c, ...b, ...a, ...d, ...c);
    }
  return Float32Array.from(out);
}

const ring = (n: number, radius: number, height: number): ViewCamera[] =>
  Array.from({ length: n }, (_, i) => ({
    position: [radius * Math.cos((2 * Math.PI * i) / n), height, radius * Math.sin((2 * Math.PI * i) / n)],
    target: [0, 0.5, 0],
    fovDeg: 50,
    width: 160,
    height: 120,
  }));

describe("surface metrics", () => {
  it("measures the distance from a point to a triangle in each region", () => {
    const tri = [0, 0, 0, 1, 0, 0, 0, 1, 0];
    expect(pointTriangleDistance([0.2, 0.2, 0.5], tri)).toBeCloseTo(0.5, 9); // above the face
    expect(pointTriangleDistance([-1, -1, 0], tri)).toBeCloseTo(Math.SQRT2, 9); // nearest a vertex
    expect(pointTriangleDistance([0.5, -2, 0], tri)).toBeCloseTo(2, 9); // nearest an edge
    expect(pointTriangleDistance([1, 1, 0], tri)).toBeCloseTo(Math.SQRT1_2, 9); // nearest the hypotenuse
  });

  it("samples a surface about as densely as asked", () => {
    const { points } = sampleSurface(sphere(1, [0, 0, 0]), 0.05);
    // Area 4π ≈ 12.6 at one point per 0.0025 → about 5,000 points (the polygonal sphere is a little smaller).
    expect(points.length / 3).toBeGreaterThan(4500);
    expect(points.length / 3).toBeLessThan(5300);
  });

  it("hides what is behind a nearer surface", () => {
    const camera: ViewCamera = { position: [0, 0.5, 3], target: [0, 0.5, 0], fovDeg: 50, width: 80, height: 60 };
    const depth = depthBuffer(sphere(0.5, [0, 0.5, 0]), camera);
    // The centre pixel sees the sphere's front at distance 2.5.
    expect(depth[30 * 80 + 40]).toBeCloseTo(2.5, 1);
    const front = Float32Array.of(0, 0.5, 0.5), back = Float32Array.of(0, 0.5, -0.5);
    const normals = Float32Array.of(0, 0, 1);
    expect(visibleFromAny(front, normals, [camera], sphere(0.5, [0, 0.5, 0]), 0.01)[0]).toBe(1);
    expect(visibleFromAny(back, normals, [camera], sphere(0.5, [0, 0.5, 0]), 0.01)[0]).toBe(0);
  });

  it("finds a reconstruction 1 % too large about 1 % of the radius away, and a half one about half complete", () => {
    const truth = sphere(0.5, [0, 0.5, 0]);
    const cameras = ring(8, 2.5, 0.5);
    const inflated = surfaceAgreement({ reconstruction: sphere(0.505, [0, 0.5, 0]), truth, cameras, coverageShare: 0.02, margin: 0.05, floorY: -1, spacing: 0.02 });
    console.warn(`[surface-metrics] inflated sphere: median ${inflated.medianDistance.toFixed(5)} (expect ≈0.005), coverage ${inflated.coverage.toFixed(3)}`);
    expect(inflated.medianDistance).toBeGreaterThan(0.003);
    expect(inflated.medianDistance).toBeLessThan(0.0065);
    expect(inflated.coverage).toBeGreaterThan(0.99);
    // Only the upper half reconstructed: the cameras at the equator see both halves.
    const half = surfaceAgreement({ reconstruction: sphere(0.5, [0, 0.5, 0], 16, 32, (y) => y > 0), truth, cameras, coverageShare: 0.02, margin: 0.05, floorY: -1, spacing: 0.02 });
    console.warn(`[surface-metrics] half sphere: coverage ${half.coverage.toFixed(3)} (expect ≈0.5)`);
    expect(half.coverage).toBeGreaterThan(0.42);
    expect(half.coverage).toBeLessThan(0.6);
  }, 60_000);

  it("scores images only where the mesh was drawn", () => {
    const rendered = new Uint8Array(4 * 4).fill(0);
    const photo = new Uint8Array(4 * 4).fill(0);
    // Two of four pixels drawn: one exact, one off by 10 in each channel.
    rendered.set([100, 100, 100, 255, 110, 110, 110, 255], 0);
    photo.set([100, 100, 100, 255, 100, 100, 100, 255, 255, 0, 0, 255], 0);
    const score = maskedPsnr(rendered, photo, 4, 1);
    expect(score.coverage).toBe(0.5);
    expect(score.psnr).toBeCloseTo(10 * Math.log10((255 * 255) / 50), 6);
  });
});
