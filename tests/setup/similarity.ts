/**
 * Similarity alignment (scale, rotation, translation) of recovered camera centres onto the true
 * ones, by Horn's closed-form quaternion method (J. Opt. Soc. Am. A 4(4), 1987). Used to report how
 * far a scan's cameras are from the cameras that rendered its input.
 */
type Vec3 = [number, number, number];

/** Eigenvalues and eigenvectors (columns) of a symmetric matrix, by cyclic Jacobi rotations. */
function jacobiEigen(input: number[][]): { values: number[]; vectors: number[][] } {
  const n = input.length;
  const a = input.map((row) => [...row]);
  const v: number[][] = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
  for (let sweep = 0; sweep < 64; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p][q] ** 2;
    if (off < 1e-24) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        if (Math.abs(a[p][q]) < 1e-300) continue;
        const theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k][p];
          const akq = a[k][q];
          a[k][p] = c * akp - s * akq;
          a[k][q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p][k];
          const aqk = a[q][k];
          a[p][k] = c * apk - s * aqk;
          a[q][k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k][p];
          const vkq = v[k][q];
          v[k][p] = c * vkp - s * vkq;
          v[k][q] = s * vkp + c * vkq;
        }
      }
    }
  }
  return { values: a.map((row, i) => row[i]), vectors: v };
}

const centroid = (points: Vec3[]): Vec3 => {
  const c: Vec3 = [0, 0, 0];
  for (const p of points) for (let k = 0; k < 3; k++) c[k] += p[k] / points.length;
  return c;
};

/**
 * Aligns `estimated` onto `truth` (same order) and returns the root-mean-square distance between the
 * aligned and true centres, in the truth's units, with the scale found.
 */
export function alignSimilarity(
  estimated: Vec3[],
  truth: Vec3[],
): {
  rmse: number;
  scale: number;
  maxError: number;
  /** Each point's distance after alignment, in order. */
  errors: number[];
  /** Maps any point of the estimated frame into the truth's frame (the alignment found). */
  apply: (p: Vec3) => Vec3;
  /** The alignment's rotation (row-major 3×3, estimated frame → truth's frame). */
  rotation: number[][];
} {
  const ca = centroid(estimated);
  const cb = centroid(truth);
  const a = estimated.map((p) => p.map((x, k) => x - ca[k]) as Vec3);
  const b = truth.map((p) => p.map((x, k) => x - cb[k]) as Vec3);
  const S = [0, 1, 2].map((i) => [0, 1, 2].map((j) => a.reduce((sum, p, n) => sum + p[i] * b[n][j], 0)));
  const [[xx, xy, xz], [yx, yy, yz], [zx, zy, zz]] = S;
  const N = [
    [xx + yy + zz, yz - zy, zx - xz, xy - yx],
    [yz - zy, xx - yy - zz, xy + yx, zx + xz],
    [zx - xz, xy + yx, -xx + yy - zz, yz + zy],
    [xy - yx, zx + xz, yz + zy, -xx - yy + zz],
  ];
  const { values, vectors } = jacobiEigen(N);
  const best = values.indexOf(Math.max(...values));
  const [w, x, y, z] = vectors.map((row) => row[best]);
  const R = [
    [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
    [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
    [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
  ];
  const rotated = a.map((p) => R.map((row) => row[0] * p[0] + row[1] * p[1] + row[2] * p[2]) as Vec3);
  const scale = rotated.reduce((sum, p, n) => sum + p[0] * b[n][0] + p[1] * b[n][1] + p[2] * b[n][2], 0) / a.reduce((sum, p) => sum + p[0] ** 2 + p[1] ** 2 + p[2] ** 2, 0);
  const errors = rotated.map((p, n) => Math.hypot(scale * p[0] - b[n][0], scale * p[1] - b[n][1], scale * p[2] - b[n][2]));
  const apply = (p: Vec3): Vec3 => {
    const d = [p[0] - ca[0], p[1] - ca[1], p[2] - ca[2]];
    return R.map((row, k) => scale * (row[0] * d[0] + row[1] * d[1] + row[2] * d[2]) + cb[k]) as Vec3;
  };
  return { rmse: Math.sqrt(errors.reduce((s, e) => s + e * e, 0) / errors.length), scale, maxError: Math.max(...errors), errors, apply, rotation: R };
}
