// The ground a scanned object stands on (issue 14): the Poisson surface of noisy dense points is a few
// point spacings bumpy where the true ground is flat, and each bump shifts where the photos land on it, so
// the floor's texture blurs and its edges move. Vertices that lie within a few spacings of the dominant
// plane are put on it; the plane must be level and below the scene's centre (groundPlane), never a wall.
import type { Mesh } from "./mesh-glb";
import { smallestEigenvector } from "./point-geometry";

/** A plane n·x = d with a unit normal. */
export interface Plane {
  normal: [number, number, number];
  d: number;
}

/** Candidates kept for the final refit (the first whose vertices' own plane is accepted is the answer). */
const RANKED = 5;

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
  return bestPlane(positions, threshold, { trials, seed, accept: () => true, levelCandidates: false, refits: 1 });
}

interface PlaneSearch {
  trials: number;
  seed: number;
  /** Which planes may be the answer. */
  accept: (plane: Plane) => boolean;
  /** Also try the level plane through the first vertex of each triple (finds a ground that holds few of the vertices). */
  levelCandidates: boolean;
  /** Least-squares refits on the vertices near the plane, each recounting them (one: the candidate's vertices only). */
  refits: number;
}

/**
 * RANSAC for the plane `accept` allows that holds the most vertices within `threshold`: `trials` candidates it
 * accepts (or degenerate triples), drawn from at most 20 × `trials` triples; of the five holding the most
 * vertices, the first whose vertices' least-squares plane `accept` allows, refitted `refits` times while it
 * allows them; with the share of the vertices the last fit used. Null when none is accepted.
 */
function bestPlane(positions: Float32Array, threshold: number, search: PlaneSearch): { plane: Plane; share: number } | null {
  const count = positions.length / 3;
  if (count < 3) return null;
  let state = search.seed >>> 0 || 1;
  const random = () => {
    // xorshift32: deterministic and good enough to draw vertex triples.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % count;
  };
  const inliers = (plane: Plane) => {
    let n = 0;
    for (let i = 0; i < positions.length; i += 3) if (Math.abs(distanceTo(plane, positions, i)) <= threshold) n++;
    return n;
  };
  // The candidates holding the most vertices, most first (the first one whose vertices' own plane is accepted wins).
  const ranked: Array<{ plane: Plane; inliers: number }> = [];
  let t = 0;
  const consider = (plane: Plane) => {
    if (!search.accept(plane)) return;
    t++;
    const n = inliers(plane);
    if (ranked.length >= RANKED && n <= ranked[ranked.length - 1].inliers) return;
    ranked.splice(ranked.findIndex((r) => n > r.inliers) >>> 0, 0, { plane, inliers: n });
    ranked.length = Math.min(ranked.length, RANKED);
  };
  for (let draws = 0; t < search.trials && draws < 20 * search.trials; draws++) {
    const [a, b, c] = [random() * 3, random() * 3, random() * 3];
    if (search.levelCandidates) consider({ normal: [0, 1, 0], d: positions[a + 1] });
    const u = [positions[b] - positions[a], positions[b + 1] - positions[a + 1], positions[b + 2] - positions[a + 2]];
    const w = [positions[c] - positions[a], positions[c + 1] - positions[a + 1], positions[c + 2] - positions[a + 2]];
    const n = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
    const length = Math.hypot(n[0], n[1], n[2]);
    if (length < 1e-12) {
      t++;
      continue;
    }
    const normal: [number, number, number] = [n[0] / length, n[1] / length, n[2] / length];
    consider({ normal, d: normal[0] * positions[a] + normal[1] * positions[a + 1] + normal[2] * positions[a + 2] });
  }
  const nearOf = (plane: Plane) => {
    const near: number[] = [];
    for (let v = 0; v < count; v++) if (Math.abs(distanceTo(plane, positions, v * 3)) <= threshold) near.push(v);
    return near;
  };
  for (const candidate of ranked) {
    let near = nearOf(candidate.plane);
    if (near.length < 3) return { plane: candidate.plane, share: near.length / count };
    let plane = fitPlane(positions, near);
    // The vertices near it lie on something `accept` refuses (a level cut through a wall or a slope).
    if (!search.accept(plane)) continue;
    for (let round = 1; round < search.refits; round++) {
      near = nearOf(plane);
      const refit = fitPlane(positions, near);
      if (!search.accept(refit)) break;
      plane = refit;
    }
    return { plane, share: near.length / count };
  }
  return null;
}

/** Degrees between the plane's normal and the upright frame's vertical (y; colmap-model.ts uprightTransform). */
export function tiltFromLevel(plane: Plane): number {
  return (Math.acos(Math.min(1, Math.abs(plane.normal[1]))) * 180) / Math.PI;
}

/**
 * Whether `plane` can be the ground under a scene centred at `centre`: within `maxTiltDeg` of level and below
 * the centre (the upright frame's y points down, so the centre lies on the plane's −y side).
 */
export function isGroundLike(plane: Plane, centre: readonly [number, number, number], maxTiltDeg: number): boolean {
  if (!(tiltFromLevel(plane) <= maxTiltDeg)) return false;
  const downwards = plane.normal[1] > 0 ? 1 : -1;
  return downwards * distanceTo(plane, centre, 0) < 0;
}

/**
 * The ground (issue 38 item 5): the plane holding the most vertices among those that are roughly level (normal
 * within `maxTiltDeg` of the vertical) and below `centre` (the region of interest's). A facade's or a
 * courtyard's wall, or a room's ceiling, is never taken for it however many vertices it holds. Null when no such
 * plane is found; the caller still checks the share it holds.
 */
export function groundPlane(input: { positions: Float32Array; threshold: number; centre: readonly [number, number, number]; maxTiltDeg?: number; trials?: number; seed?: number }): { plane: Plane; share: number } | null {
  const maxTiltDeg = input.maxTiltDeg ?? 25;
  const accept = (plane: Plane) => isGroundLike(plane, input.centre, maxTiltDeg);
  return bestPlane(input.positions, input.threshold, { trials: input.trials ?? 300, seed: input.seed ?? 1, accept, levelCandidates: true, refits: 3 });
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
