/**
 * COLMAP's text model (cameras.txt, images.txt, points3D.txt, written by `colmap model_converter
 * --output_type TXT`) read into plain arrays, and the figures the quality gate needs. Pure.
 */
export interface ColmapCamera {
  id: number;
  model: string;
  width: number;
  height: number;
  params: number[];
}

export interface ColmapImage {
  id: number;
  /** World-to-camera rotation (w, x, y, z) and translation. */
  q: [number, number, number, number];
  t: [number, number, number];
  cameraId: number;
  name: string;
}

export interface ColmapPoints {
  count: number;
  /** x, y, z per point. */
  positions: Float64Array;
  /** r, g, b per point (0–255). */
  colors: Uint8Array;
  /** Mean reprojection error of each point, in pixels. */
  errors: Float64Array;
  /** How many images see each point. */
  trackLengths: Uint32Array;
  /** The ids of the images that see each point (for orienting normals). */
  tracks: Uint32Array[];
}

export interface ColmapModel {
  cameras: ColmapCamera[];
  images: ColmapImage[];
  points: ColmapPoints;
}

function dataLines(text: string): string[] {
  return text.split("\n").filter((line) => line.length > 0 && !line.startsWith("#"));
}

export function parseCameras(text: string): ColmapCamera[] {
  return dataLines(text).map((line) => {
    const [id, model, width, height, ...params] = line.trim().split(/\s+/);
    return { id: Number(id), model, width: Number(width), height: Number(height), params: params.map(Number) };
  });
}

/** images.txt has two lines per image; the second (its 2D points) may be empty, so blank lines count here. */
export function parseImages(text: string): ColmapImage[] {
  const lines = text.split("\n").filter((line) => !line.startsWith("#"));
  const images: ColmapImage[] = [];
  for (let i = 0; i + 1 <= lines.length; i += 2) {
    const fields = lines[i].trim().split(/\s+/);
    if (fields.length < 10) break;
    const [id, qw, qx, qy, qz, tx, ty, tz, cameraId, ...name] = fields;
    images.push({
      id: Number(id),
      q: [Number(qw), Number(qx), Number(qy), Number(qz)],
      t: [Number(tx), Number(ty), Number(tz)],
      cameraId: Number(cameraId),
      name: name.join(" "),
    });
  }
  return images;
}

export function parsePoints(text: string): ColmapPoints {
  const lines = dataLines(text);
  const count = lines.length;
  const positions = new Float64Array(count * 3);
  const colors = new Uint8Array(count * 3);
  const errors = new Float64Array(count);
  const trackLengths = new Uint32Array(count);
  const tracks: Uint32Array[] = [];
  lines.forEach((line, i) => {
    const f = line.trim().split(/\s+/);
    positions[i * 3] = Number(f[1]);
    positions[i * 3 + 1] = Number(f[2]);
    positions[i * 3 + 2] = Number(f[3]);
    colors[i * 3] = Number(f[4]);
    colors[i * 3 + 1] = Number(f[5]);
    colors[i * 3 + 2] = Number(f[6]);
    errors[i] = Number(f[7]);
    const track = new Uint32Array((f.length - 8) >> 1);
    for (let k = 0; k < track.length; k++) track[k] = Number(f[8 + 2 * k]);
    tracks.push(track);
    trackLengths[i] = track.length;
  });
  return { count, positions, colors, errors, trackLengths, tracks };
}

export function parseModel(files: { cameras: string; images: string; points3D: string }): ColmapModel {
  return { cameras: parseCameras(files.cameras), images: parseImages(files.images), points: parsePoints(files.points3D) };
}

/** The mean of the points' reprojection errors (what `colmap model_analyzer` reports). */
export function meanReprojectionError(points: ColmapPoints): number {
  if (points.count === 0) return Number.POSITIVE_INFINITY;
  let sum = 0;
  for (let i = 0; i < points.count; i++) sum += points.errors[i];
  return sum / points.count;
}

/** World-to-camera rotation matrix (row-major 3×3) of a unit quaternion (w, x, y, z). */
export function rotationMatrix([w, x, y, z]: [number, number, number, number]): number[] {
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ];
}

/** The camera's centre in world coordinates: C = −Rᵀ t. */
export function cameraCenter(image: Pick<ColmapImage, "q" | "t">): [number, number, number] {
  const r = rotationMatrix(image.q);
  const [tx, ty, tz] = image.t;
  return [
    -(r[0] * tx + r[3] * ty + r[6] * tz),
    -(r[1] * tx + r[4] * ty + r[7] * tz),
    -(r[2] * tx + r[5] * ty + r[8] * tz),
  ];
}

/** The rotation (row-major 3×3) that turns unit vector `a` onto unit vector `b` (Rodrigues). */
export function rotationBetween(a: [number, number, number], b: [number, number, number]): number[] {
  const v = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const c = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  if (c < -0.999999) {
    // Opposite vectors: half a turn about any axis perpendicular to a.
    const axis = Math.abs(a[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
    const p = [a[1] * axis[2] - a[2] * axis[1], a[2] * axis[0] - a[0] * axis[2], a[0] * axis[1] - a[1] * axis[0]];
    const n = Math.hypot(p[0], p[1], p[2]);
    const u = p.map((x) => x / n);
    return [0, 1, 2].flatMap((r) => [0, 1, 2].map((q) => 2 * u[r] * u[q] - (r === q ? 1 : 0)));
  }
  const k = 1 / (1 + c);
  const vx = [0, -v[2], v[1], v[2], 0, -v[0], -v[1], v[0], 0];
  const out: number[] = [];
  for (let r = 0; r < 3; r++) {
    for (let q = 0; q < 3; q++) {
      let square = 0;
      for (let m = 0; m < 3; m++) square += vx[r * 3 + m] * vx[m * 3 + q];
      out.push((r === q ? 1 : 0) + vx[r * 3 + q] + square * k);
    }
  }
  return out;
}

/**
 * A rigid transform (4×4, row-major) that puts the scan upright and centred: the cameras' mean "up"
 * (each camera's −y axis in the world) becomes −y, the 3DGS/COLMAP convention that the viewer flips
 * to screen-up, and the points' per-axis median moves to the origin.
 */
export function uprightTransform(images: Array<Pick<ColmapImage, "q">>, points: Pick<ColmapPoints, "count" | "positions">): number[] {
  const up = [0, 0, 0];
  for (const image of images) {
    const r = rotationMatrix(image.q);
    up[0] -= r[3];
    up[1] -= r[4];
    up[2] -= r[5];
  }
  const length = Math.hypot(up[0], up[1], up[2]);
  const rotation = length > 1e-9 ? rotationBetween([up[0] / length, up[1] / length, up[2] / length], [0, -1, 0]) : [1, 0, 0, 0, 1, 0, 0, 0, 1];
  const centre = [0, 1, 2].map((axis) => {
    const values: number[] = [];
    for (let i = 0; i < points.count; i++) values.push(points.positions[i * 3 + axis]);
    values.sort((a, b) => a - b);
    return values.length ? values[values.length >> 1] : 0;
  });
  const t = [0, 1, 2].map((r) => -(rotation[r * 3] * centre[0] + rotation[r * 3 + 1] * centre[1] + rotation[r * 3 + 2] * centre[2]));
  return [...rotation.slice(0, 3), t[0], ...rotation.slice(3, 6), t[1], ...rotation.slice(6, 9), t[2], 0, 0, 0, 1];
}
