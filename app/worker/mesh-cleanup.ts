// Clean-up and decimation of the Poisson surface before it is textured (issue 14): pieces that are not
// part of the subject (small floating components, what the mesher made of stray points) are removed,
// and the surface is simplified to the triangle budget of its level (quadric error metric, meshoptimizer).
import { MeshoptSimplifier } from "meshoptimizer";
import { keepFaces, type Mesh } from "./mesh-glb";
import { nearestNeighbours } from "./point-geometry";

/**
 * Removes connected components (faces joined by shared vertices) with fewer than `minFraction` of all
 * faces: the floaters a Poisson surface grows around stray points. The subject itself is one large piece.
 */
export function removeSmallComponents(mesh: Mesh, minFraction: number): { mesh: Mesh; removedComponents: number; removedFaces: number } {
  const parent = Int32Array.from({ length: mesh.positions.length / 3 }, (_, i) => i);
  const find = (v: number): number => {
    while (parent[v] !== v) {
      parent[v] = parent[parent[v]];
      v = parent[v];
    }
    return v;
  };
  const faces = mesh.indices.length / 3;
  for (let f = 0; f < faces; f++) {
    const a = find(mesh.indices[f * 3]);
    for (let k = 1; k < 3; k++) {
      const b = find(mesh.indices[f * 3 + k]);
      if (a !== b) parent[b] = a;
    }
  }
  const facesOf = new Map<number, number>();
  const root = new Int32Array(faces);
  for (let f = 0; f < faces; f++) {
    root[f] = find(mesh.indices[f * 3]);
    facesOf.set(root[f], (facesOf.get(root[f]) ?? 0) + 1);
  }
  const minFaces = Math.max(1, Math.ceil(minFraction * faces));
  let removedComponents = 0;
  let removedFaces = 0;
  for (const count of facesOf.values()) {
    if (count < minFaces) {
      removedComponents++;
      removedFaces += count;
    }
  }
  return { mesh: keepFaces(mesh, (f) => facesOf.get(root[f])! >= minFaces), removedComponents, removedFaces };
}

/**
 * Simplifies the surface to at most `maxTriangles` (quadric error metric; the count is the binding limit, not
 * the error). Answers the mesh unchanged when it is already within the budget, and the simplifier's relative
 * error (a fraction of the mesh's extent) otherwise.
 */
export async function simplifyToBudget(mesh: Mesh, maxTriangles: number): Promise<{ mesh: Mesh; error: number }> {
  if (mesh.indices.length / 3 <= maxTriangles) return { mesh, error: 0 };
  await MeshoptSimplifier.ready;
  const [indices, error] = MeshoptSimplifier.simplify(mesh.indices, mesh.positions, 3, maxTriangles * 3, 1, []);
  const simplified = { ...mesh, indices };
  return { mesh: keepFaces(simplified, () => true), error };
}

/**
 * Cuts the Poisson surface where its sampling density (the per-vertex `value` of COLMAP's mesher, in octree
 * levels: one level lower is about half the points' density) falls `belowMedian` levels under the surface's
 * median: the trim is chosen from the density distribution of each scan, so a sparser capture is not cut away
 * whole as a fixed trim once did (DESIGN §6: densities 4–7.8 and a trim of 10). A face goes when the mean of
 * its corners' densities is under the trim.
 */
export function trimByDensity(mesh: Mesh, densities: Float32Array, belowMedian: number): { mesh: Mesh; trim: number; removedFaces: number } {
  if (densities.length !== mesh.positions.length / 3) throw new Error("one density per vertex is needed to trim the surface");
  if (densities.length === 0) return { mesh, trim: 0, removedFaces: 0 };
  const sorted = Float32Array.from(densities).sort();
  const trim = sorted[Math.floor(sorted.length / 2)] - belowMedian;
  const keep = (f: number) => (densities[mesh.indices[f * 3]] + densities[mesh.indices[f * 3 + 1]] + densities[mesh.indices[f * 3 + 2]]) / 3 >= trim;
  let removedFaces = 0;
  for (let f = 0; f < mesh.indices.length / 3; f++) if (!keep(f)) removedFaces++;
  return { mesh: removedFaces ? keepFaces(mesh, keep) : mesh, trim, removedFaces };
}

/** Median distance from each point to its nearest neighbour: the dense cloud's spacing. */
export function medianSpacing(points: Float32Array): number {
  const count = points.length / 3;
  if (count < 2) return 0;
  const { distances2 } = nearestNeighbours(points, 1);
  const finite = Array.from(distances2).filter(Number.isFinite).sort((a, b) => a - b);
  return finite.length ? Math.sqrt(finite[Math.floor(finite.length / 2)]) : 0;
}

/** Points in a uniform hash grid, for "which points lie within r of here" queries with r up to the cell size. */
class PointHash {
  private readonly cells = new Map<number, number[]>();

  constructor(
    private readonly points: Float32Array,
    private readonly cell: number,
  ) {
    for (let i = 0; i < points.length; i += 3) {
      const id = this.key(points[i], points[i + 1], points[i + 2]);
      const list = this.cells.get(id);
      if (list) list.push(i);
      else this.cells.set(id, [i]);
    }
  }

  // Cells that share a hash share a list: harmless, every candidate's distance is checked.
  private key(x: number, y: number, z: number, dx = 0, dy = 0, dz = 0): number {
    const c = this.cell;
    return Math.imul(Math.floor(x / c) + dx, 73856093) ^ Math.imul(Math.floor(y / c) + dy, 19349663) ^ Math.imul(Math.floor(z / c) + dz, 83492791);
  }

  /** Calls `visit` with the offset (into points) of each point within `radius` (≤ the cell size) of (x, y, z); stops when it answers true. */
  within(x: number, y: number, z: number, radius: number, visit: (offset: number) => boolean | void): void {
    const r2 = radius * radius;
    const seen = new Set<number>();
    for (let dz = -1; dz <= 1; dz++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const id = this.key(x, y, z, dx, dy, dz);
          if (seen.has(id)) continue;
          seen.add(id);
          for (const i of this.cells.get(id) ?? []) {
            const ex = this.points[i] - x, ey = this.points[i + 1] - y, ez = this.points[i + 2] - z;
            if (ex * ex + ey * ey + ez * ez <= r2 && visit(i)) return;
          }
        }
      }
    }
  }
}

/**
 * The largest angle (radians) between neighbouring directions from the origin to the points (a, b) of a
 * plane: small when the points surround the origin, π or more when they all lie on one side of a line.
 */
export function largestAngularGap(directions: Array<[number, number]>): number {
  if (directions.length === 0) return 2 * Math.PI;
  const angles = directions.map(([a, b]) => Math.atan2(b, a)).sort((p, q) => p - q);
  let gap = angles[0] + 2 * Math.PI - angles[angles.length - 1];
  for (let i = 1; i < angles.length; i++) gap = Math.max(gap, angles[i] - angles[i - 1]);
  return gap;
}

/**
 * The mesh stage's support test, in units of the dense cloud's point spacing. Measured on the CI photo set
 * (24 renders of the cat on a floor with textureless patches): near 4 / reach 16 / 135° cut holes into the
 * floor where stereo found no match (held-out PSNR 22.11 → 21.72 dB); these looser values remove what lies
 * clearly past the measured surface (169 of 130k faces there, no visible change) and still cut the
 * closed-off back of a one-sided capture (unit test).
 */
export const SUPPORT_IN_SPACINGS = { near: 6, reach: 40, maxGapDegrees: 160 };

/** The support test for a cloud of the given spacing. */
export function supportOptions(spacing: number): SupportOptions {
  return { near: SUPPORT_IN_SPACINGS.near * spacing, reach: SUPPORT_IN_SPACINGS.reach * spacing, maxGap: (SUPPORT_IN_SPACINGS.maxGapDegrees * Math.PI) / 180 };
}

export interface SupportOptions {
  /** A face with a dense point closer than this to its centre is supported. */
  near: number;
  /** How far around an unsupported face to look for the points that enclose it (≥ near). */
  reach: number;
  /** An unsupported face whose surrounding points leave a gap wider than this (radians) is beyond the measured surface. */
  maxGap: number;
}

/**
 * Removes the faces of a Poisson surface that extend the measured surface rather than fill it. A Poisson
 * surface is watertight by construction: where no point was measured it both fills holes (a textureless
 * patch of floor that stereo could not match, enclosed by measured points all around: plausible, kept) and
 * continues past the edges of what the cameras saw (the closed-off back of a one-sided capture, rounded-off
 * ear tips and rims: invented, and painted by the texture with whatever lies behind). A face with no point
 * within `near` of its centre is kept only when the points within `reach`, seen in the face's plane,
 * surround it (no angular gap wider than `maxGap`). The caller removes the crumbs this may leave.
 */
export function removeUnsupportedFaces(mesh: Mesh, points: Float32Array, options: SupportOptions): { mesh: Mesh; removedFaces: number; filledFaces: number } {
  const { near, reach, maxGap } = options;
  const faces = mesh.indices.length / 3;
  if (!(near > 0) || points.length < 3) return { mesh, removedFaces: 0, filledFaces: 0 };
  const nearHash = new PointHash(points, near);
  const reachHash = new PointHash(points, Math.max(reach, near));
  const keep = new Uint8Array(faces);
  let removedFaces = 0;
  let filledFaces = 0;
  const p = mesh.positions;
  for (let f = 0; f < faces; f++) {
    const a = mesh.indices[f * 3] * 3, b = mesh.indices[f * 3 + 1] * 3, c = mesh.indices[f * 3 + 2] * 3;
    const x = (p[a] + p[b] + p[c]) / 3, y = (p[a + 1] + p[b + 1] + p[c + 1]) / 3, z = (p[a + 2] + p[b + 2] + p[c + 2]) / 3;
    let supported = false;
    nearHash.within(x, y, z, near, () => (supported = true));
    if (!supported) {
      // The face's plane: its normal, and two directions in it.
      const e1 = [p[b] - p[a], p[b + 1] - p[a + 1], p[b + 2] - p[a + 2]];
      const e2 = [p[c] - p[a], p[c + 1] - p[a + 1], p[c + 2] - p[a + 2]];
      const n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
      const nLength = Math.hypot(n[0], n[1], n[2]);
      const uLength = Math.hypot(e1[0], e1[1], e1[2]);
      if (nLength > 0 && uLength > 0) {
        const u = e1.map((v) => v / uLength);
        const nn = n.map((v) => v / nLength);
        const v = [nn[1] * u[2] - nn[2] * u[1], nn[2] * u[0] - nn[0] * u[2], nn[0] * u[1] - nn[1] * u[0]];
        const directions: Array<[number, number]> = [];
        reachHash.within(x, y, z, reach, (i) => {
          const d = [points[i] - x, points[i + 1] - y, points[i + 2] - z];
          directions.push([d[0] * u[0] + d[1] * u[1] + d[2] * u[2], d[0] * v[0] + d[1] * v[1] + d[2] * v[2]]);
        });
        supported = largestAngularGap(directions) <= maxGap;
        if (supported) filledFaces++;
      }
    }
    keep[f] = supported ? 1 : 0;
    if (!supported) removedFaces++;
  }
  return { mesh: removedFaces ? keepFaces(mesh, (f) => keep[f] === 1) : mesh, removedFaces, filledFaces };
}
