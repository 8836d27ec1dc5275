/**
 * Geometry on sparse point clouds (pure): k nearest neighbours through a uniform grid, splat sizes
 * from neighbour distances, and normals by local PCA oriented towards the cameras that saw each
 * point (COLMAP's Poisson mesher needs normals; sparse points have none).
 */
export interface Neighbours {
  k: number;
  /** For point i, its neighbours are indices[i*k … i*k+k-1], nearest first (−1 when fewer exist). */
  indices: Int32Array;
  /** Squared distances, in the same order (Infinity where there is no neighbour). */
  distances2: Float64Array;
}

/** k nearest neighbours of every point (itself excluded). Expected O(n·k) on evenly spread points. */
export function nearestNeighbours(positions: ArrayLike<number>, k: number): Neighbours {
  const n = Math.floor(positions.length / 3);
  const indices = new Int32Array(n * k).fill(-1);
  const distances2 = new Float64Array(n * k).fill(Number.POSITIVE_INFINITY);
  if (n < 2) return { k, indices, distances2 };
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < 3; a++) {
      min[a] = Math.min(min[a], positions[i * 3 + a]);
      max[a] = Math.max(max[a], positions[i * 3 + a]);
    }
  }
  const extent = Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2], 1e-9);
  // About two points per cell on average for a surface-like cloud.
  const dims = Math.max(1, Math.min(256, Math.round(Math.cbrt(n / 2))));
  const cell = extent / dims + 1e-12;
  const size = [0, 1, 2].map((a) => Math.max(1, Math.ceil((max[a] - min[a]) / cell) + 1));
  const key = (x: number, y: number, z: number) => (z * size[1] + y) * size[0] + x;
  const cellOf = (i: number, a: number) => Math.min(size[a] - 1, Math.floor((positions[i * 3 + a] - min[a]) / cell));
  const buckets = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const id = key(cellOf(i, 0), cellOf(i, 1), cellOf(i, 2));
    const bucket = buckets.get(id);
    if (bucket) bucket.push(i);
    else buckets.set(id, [i]);
  }
  const maxRing = Math.max(size[0], size[1], size[2]);
  for (let i = 0; i < n; i++) {
    const cx = cellOf(i, 0);
    const cy = cellOf(i, 1);
    const cz = cellOf(i, 2);
    const base = i * k;
    let found = 0;
    const consider = (j: number) => {
      if (j === i) return;
      const dx = positions[j * 3] - positions[i * 3];
      const dy = positions[j * 3 + 1] - positions[i * 3 + 1];
      const dz = positions[j * 3 + 2] - positions[i * 3 + 2];
      const d2 = dx * dx + dy * dy + dz * dz;
      if (found === k && d2 >= distances2[base + k - 1]) return;
      let slot = Math.min(found, k - 1);
      while (slot > 0 && distances2[base + slot - 1] > d2) {
        distances2[base + slot] = distances2[base + slot - 1];
        indices[base + slot] = indices[base + slot - 1];
        slot--;
      }
      distances2[base + slot] = d2;
      indices[base + slot] = j;
      if (found < k) found++;
    };
    for (let ring = 0; ring <= maxRing; ring++) {
      for (let z = cz - ring; z <= cz + ring; z++) {
        if (z < 0 || z >= size[2]) continue;
        for (let y = cy - ring; y <= cy + ring; y++) {
          if (y < 0 || y >= size[1]) continue;
          for (let x = cx - ring; x <= cx + ring; x++) {
            if (x < 0 || x >= size[0]) continue;
            // Only the shell of this ring: inner cells were searched already.
            if (Math.max(Math.abs(x - cx), Math.abs(y - cy), Math.abs(z - cz)) !== ring) continue;
            const bucket = buckets.get(key(x, y, z));
            if (bucket) for (const j of bucket) consider(j);
          }
        }
      }
      // Every point outside the searched cube is at least ring·cell away.
      if (found === k && distances2[base + k - 1] <= (ring * cell) ** 2) break;
    }
  }
  return { k, indices, distances2 };
}

/** The root mean square distance of each point to its (up to k) nearest neighbours. */
export function neighbourScales(neighbours: Neighbours, count: number): Float64Array {
  const { k, distances2 } = neighbours;
  const out = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    let sum = 0;
    let m = 0;
    for (let s = 0; s < k; s++) {
      const d2 = distances2[i * k + s];
      if (Number.isFinite(d2)) {
        sum += d2;
        m++;
      }
    }
    out[i] = m > 0 ? Math.sqrt(sum / m) : 0;
  }
  return out;
}

/** Eigenvector of the smallest eigenvalue of a symmetric 3×3 matrix (cyclic Jacobi rotations). */
export function smallestEigenvector(m: number[]): [number, number, number] {
  const a = [
    [m[0], m[1], m[2]],
    [m[3], m[4], m[5]],
    [m[6], m[7], m[8]],
  ];
  const v = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  for (let sweep = 0; sweep < 32; sweep++) {
    const off = a[0][1] ** 2 + a[0][2] ** 2 + a[1][2] ** 2;
    if (off < 1e-30) break;
    for (const [p, q] of [
      [0, 1],
      [0, 2],
      [1, 2],
    ]) {
      if (Math.abs(a[p][q]) < 1e-300) continue;
      const theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1);
      const s = t * c;
      for (let r = 0; r < 3; r++) {
        const arp = a[r][p];
        const arq = a[r][q];
        a[r][p] = c * arp - s * arq;
        a[r][q] = s * arp + c * arq;
      }
      for (let r = 0; r < 3; r++) {
        const apr = a[p][r];
        const aqr = a[q][r];
        a[p][r] = c * apr - s * aqr;
        a[q][r] = s * apr + c * aqr;
      }
      for (let r = 0; r < 3; r++) {
        const vrp = v[r][p];
        const vrq = v[r][q];
        v[r][p] = c * vrp - s * vrq;
        v[r][q] = s * vrp + c * vrq;
      }
    }
  }
  let smallest = 0;
  for (let i = 1; i < 3; i++) if (a[i][i] < a[smallest][smallest]) smallest = i;
  const x = v[0][smallest];
  const y = v[1][smallest];
  const z = v[2][smallest];
  const norm = Math.hypot(x, y, z) || 1;
  return [x / norm, y / norm, z / norm];
}

/**
 * Unit normals by PCA over each point's neighbours, flipped to face `viewpoint(i)` (e.g. the mean
 * centre of the cameras that saw the point) so the surface's outside is where the cameras were.
 */
export function estimateNormals(
  positions: ArrayLike<number>,
  neighbours: Neighbours,
  viewpoint: (i: number) => [number, number, number] | null,
): Float32Array {
  const n = Math.floor(positions.length / 3);
  const normals = new Float32Array(n * 3);
  const { k, indices } = neighbours;
  for (let i = 0; i < n; i++) {
    const members = [i];
    for (let s = 0; s < k; s++) if (indices[i * k + s] >= 0) members.push(indices[i * k + s]);
    let mx = 0;
    let my = 0;
    let mz = 0;
    for (const j of members) {
      mx += positions[j * 3];
      my += positions[j * 3 + 1];
      mz += positions[j * 3 + 2];
    }
    mx /= members.length;
    my /= members.length;
    mz /= members.length;
    const c = [0, 0, 0, 0, 0, 0, 0, 0, 0];
    for (const j of members) {
      const d = [positions[j * 3] - mx, positions[j * 3 + 1] - my, positions[j * 3 + 2] - mz];
      for (let r = 0; r < 3; r++) for (let q = 0; q < 3; q++) c[r * 3 + q] += d[r] * d[q];
    }
    let normal: [number, number, number] = members.length >= 3 ? smallestEigenvector(c) : [0, 0, 1];
    const view = viewpoint(i);
    if (view) {
      const toView = [view[0] - positions[i * 3], view[1] - positions[i * 3 + 1], view[2] - positions[i * 3 + 2]];
      if (normal[0] * toView[0] + normal[1] * toView[1] + normal[2] * toView[2] < 0) normal = [-normal[0], -normal[1], -normal[2]];
    }
    normals.set(normal, i * 3);
  }
  return normals;
}
