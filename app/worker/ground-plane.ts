// The ground a scanned object stands on (issue 14): the Poisson surface of noisy dense points is a few
// point spacings bumpy where the true ground is flat, and each bump shifts where the photos land on it, so
// the floor's texture blurs and its edges move. Vertices that lie within a few spacings of the dominant
// plane are put on it.
import type { Mesh } from "./mesh-glb";
import { smallestEigenvector } from "./point-geometry";

/** A plane n·x = d with a unit normal. */
export interface Plane {
  normal: [number, number, number];
  d: number;
}

const distanceTo = (plane: Plane, p: ArrayLike<number>, i: number) =>
  plane.normal[0] * p[i] + plane.normal[1] * p[i + 1] + plane.normal[2] * p[i + 2] - plane.d;

/** Least-squares plane through the points at `indices` (vertex numbers into positions). */
function fitPlane(positions: Float32Array, indices: number[]): Plane {
  const c = [0, 0, 0];
  for (const v of indices) for (let k = 0; k < 3; k++) c[k] += positions[v * 3 + k] / indices.length;
  const m = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  for (const v of indices) {
    const q = [positions[v * 3] - c[0], positions[v * 3 + 1] - c[1], positions[v * 3 + 2] - c[2]];
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) m[i * 3 + j] += q[i] * q[j];
  }
  const normal = smallestEigenvector(m);
  return { normal, d: normal[0] * c[0] + normal[1] * c[1] + normal[2] * c[2] };
}

/**
 * The plane with the most vertices within `threshold` of it (RANSAC over `trials` triples drawn by a fixed
 * seed, so a scan gives the same plane every run), refined by least squares on those vertices; with the
 * share of all vertices it holds. Null when the mesh has fewer than three vertices.
 */
export function dominantPlane(positions: Float32Array, threshold: number, trials = 300, seed = 1): { plane: Plane; share: number } | null {
  const count = positions.length / 3;
  if (count < 3) return null;
  let state = seed >>> 0 || 1;
  const random = () => {
    // xorshift32: deterministic and good enough to draw vertex triples.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % count;
  };
  let best: Plane | null = null;
  let bestInliers = -1;
  for (let t = 0; t < trials; t++) {
    const [a, b, c] = [random() * 3, random() * 3, random() * 3];
    const u = [positions[b] - positions[a], positions[b + 1] - positions[a + 1], positions[b + 2] - positions[a + 2]];
    const w = [positions[c] - positions[a], positions[c + 1] - positions[a + 1], positions[c + 2] - positions[a + 2]];
    const n = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
    const length = Math.hypot(n[0], n[1], n[2]);
    if (length < 1e-12) continue;
    const normal: [number, number, number] = [n[0] / length, n[1] / length, n[2] / length];
    const plane = { normal, d: normal[0] * positions[a] + normal[1] * positions[a + 1] + normal[2] * positions[a + 2] };
    let inliers = 0;
    for (let i = 0; i < positions.length; i += 3) if (Math.abs(distanceTo(plane, positions, i)) <= threshold) inliers++;
    if (inliers > bestInliers) {
      bestInliers = inliers;
      best = plane;
    }
  }
  if (!best) return null;
  const near: number[] = [];
  for (let v = 0; v < count; v++) if (Math.abs(distanceTo(best, positions, v * 3)) <= threshold) near.push(v);
  const plane = near.length >= 3 ? fitPlane(positions, near) : best;
  return { plane, share: near.length / count };
}

/**
 * `plane` refitted to the points within `reach` of it, then again to those within half the reach of that fit
 * (least squares both times); with how many points the last fit used. Null when fewer than `minPoints` lie
 * near it, or when the refit turns more than `maxTiltDeg` from `plane` (the points lie on something else).
 * The mesh stage refits the surface's ground to the structure-from-motion points: bundle-adjusted
 * measurements of it, where the dense surface sits a few millimetres above it (decision 032).
 */
export function refinePlane(plane: Plane, points: Float32Array, reach: number, minPoints = 30, maxTiltDeg = 5): { plane: Plane; points: number } | null {
  let current = plane;
  let near: number[] = [];
  for (const within of [reach, reach / 2]) {
    near = [];
    for (let v = 0; v < points.length / 3; v++) if (Math.abs(distanceTo(current, points, v * 3)) <= within) near.push(v);
    if (near.length < Math.max(3, minPoints)) return null;
    current = fitPlane(points, near);
    // Keep the normal on the side `plane` had it.
    const dot = current.normal[0] * plane.normal[0] + current.normal[1] * plane.normal[1] + current.normal[2] * plane.normal[2];
    if (dot < 0) current = { normal: [-current.normal[0], -current.normal[1], -current.normal[2]], d: -current.d };
    if (Math.acos(Math.min(1, Math.abs(dot))) > (maxTiltDeg * Math.PI) / 180) return null;
  }
  return { plane: current, points: near.length };
}

/**
 * The mesh with every vertex within `threshold` of `plane` moved onto `target` (by default `plane` itself)
 * along the target's normal; how many moved.
 */
export function snapToPlane(mesh: Mesh, plane: Plane, threshold: number, target: Plane = plane): { mesh: Mesh; snapped: number } {
  const positions = Float32Array.from(mesh.positions);
  let snapped = 0;
  for (let i = 0; i < positions.length; i += 3) {
    if (Math.abs(distanceTo(plane, positions, i)) > threshold) continue;
    const distance = distanceTo(target, positions, i);
    for (let k = 0; k < 3; k++) positions[i + k] -= distance * target.normal[k];
    snapped++;
  }
  return { mesh: { ...mesh, positions }, snapped };
}
