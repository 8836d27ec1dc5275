/**
 * Synthetic captures for the region of interest and the ground plane (issue 38 item 5): cameras and the fused
 * points a dense stage would give, in the upright model frame (y down, metres). Each rig samples its surfaces
 * evenly and keeps a surface point only where at least three cameras see it (in front, within a 35° half field
 * of view, facing it), as fusion would; its visibility count is how many cameras see it. Then come a few
 * far-away points seen by one or two images, a few far-away points seen by three to six (sparse background),
 * and a few points behind every camera (seen by three to six, as a spurious match would be). The whole rig is
 * turned about the vertical and moved, so that nothing lines up with the model axes.
 */
import type { CaptureCamera } from "~/worker/dense-points";

type Vec3 = [number, number, number];

export interface RigPart {
  name: "object" | "ground" | "wall" | "ceiling";
  /** The part's points are positions[start * 3 … end * 3). */
  start: number;
  end: number;
}

export interface CaptureRig {
  name: string;
  cameras: CaptureCamera[];
  positions: Float32Array;
  visibility: Uint32Array;
  /** Points [0, surface) are the captured surface, made of `parts`. */
  surface: number;
  parts: RigPart[];
  farFewViews: [number, number];
  farSparse: [number, number];
  behind: [number, number];
  /** Diagonal of the captured surface's bounding box along the rig's own walls (before it was turned). */
  surfaceDiagonal: number;
}

const HALF_FOV = (35 * Math.PI) / 180;
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const unit = (a: Vec3): Vec3 => {
  const n = Math.hypot(...a);
  return [a[0] / n, a[1] / n, a[2] / n];
};

/** A camera at `centre` looking along `yaw` (radians, 0 = +z, π/2 = +x) and `pitch` (radians, up positive). */
function cameraLooking(centre: Vec3, yaw: number, pitch: number): CaptureCamera {
  return { centre, axis: [Math.sin(yaw) * Math.cos(pitch), -Math.sin(pitch), Math.cos(yaw) * Math.cos(pitch)] };
}
function cameraLookingAt(centre: Vec3, target: Vec3): CaptureCamera {
  return { centre, axis: unit(sub(target, centre)) };
}

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** How many cameras see a point with this normal (in front, within the field of view, facing it). */
function camerasSeeing(cameras: CaptureCamera[], p: Vec3, normal: Vec3): number {
  let n = 0;
  for (const { centre, axis } of cameras) {
    const ray = sub(p, centre);
    const depth = dot(ray, axis);
    if (depth <= 0 || dot(normal, ray) >= 0) continue;
    if (Math.acos(Math.min(1, depth / Math.hypot(...ray))) <= HALF_FOV) n++;
  }
  return n;
}

function inFrontOfAny(cameras: CaptureCamera[], p: Vec3): boolean {
  return cameras.some(({ centre, axis }) => dot(sub(p, centre), axis) > 0);
}

/** A flat patch: a corner, two edges, the side it is seen from, and points per square metre. */
interface Patch {
  name: RigPart["name"];
  corner: Vec3;
  edgeA: Vec3;
  edgeB: Vec3;
  normal: Vec3;
  density: number;
}
/** A ball on the ground (an orbit's object). */
interface Ball {
  name: "object";
  centre: Vec3;
  radius: number;
  density: number;
}
/** A disc of ground (y constant), seen from above. */
interface Disc {
  name: "ground";
  centre: Vec3;
  radius: number;
  density: number;
}
type Surface = Patch | Ball | Disc;

function samplesOf(surface: Surface, next: () => number): Array<{ p: Vec3; normal: Vec3 }> {
  const out: Array<{ p: Vec3; normal: Vec3 }> = [];
  if ("edgeA" in surface) {
    const area = Math.hypot(...surface.edgeA) * Math.hypot(...surface.edgeB);
    for (let i = 0; i < Math.round(area * surface.density); i++) {
      const a = next(), b = next();
      out.push({ p: [0, 1, 2].map((k) => surface.corner[k] + a * surface.edgeA[k] + b * surface.edgeB[k]) as Vec3, normal: surface.normal });
    }
  } else if (surface.name === "object") {
    const area = 4 * Math.PI * surface.radius ** 2;
    for (let i = 0; i < Math.round(area * surface.density); i++) {
      const z = 2 * next() - 1, phi = 2 * Math.PI * next(), r = Math.sqrt(1 - z * z);
      const normal: Vec3 = [r * Math.cos(phi), z, r * Math.sin(phi)];
      out.push({ p: [0, 1, 2].map((k) => surface.centre[k] + surface.radius * normal[k]) as Vec3, normal });
    }
  } else {
    const area = Math.PI * surface.radius ** 2;
    for (let i = 0; i < Math.round(area * surface.density); i++) {
      const r = surface.radius * Math.sqrt(next()), phi = 2 * Math.PI * next();
      out.push({ p: [surface.centre[0] + r * Math.cos(phi), surface.centre[1], surface.centre[2] + r * Math.sin(phi)], normal: [0, -1, 0] });
    }
  }
  return out;
}

interface RigPlan {
  name: string;
  cameras: CaptureCamera[];
  surfaces: Surface[];
  /** Where to draw far-away points (in front of some camera) and points behind every camera: a box [min, max]. */
  farBox: [Vec3, Vec3];
  behindBox: [Vec3, Vec3];
  /** Turn about the vertical (radians) and move applied to the whole rig. */
  turn: number;
  move: Vec3;
  seed: number;
}

const OUTLIERS = 15;
/** Depth noise of the surface points (metres, uniform ±). */
const NOISE = 0.005;

function buildRig(plan: RigPlan): CaptureRig {
  const next = random(plan.seed);
  const positions: number[] = [];
  const visibility: number[] = [];
  const parts: RigPart[] = [];
  const low = [Infinity, Infinity, Infinity], high = [-Infinity, -Infinity, -Infinity];
  for (const surface of plan.surfaces) {
    const start = visibility.length;
    for (const { p, normal } of samplesOf(surface, next)) {
      const seen = camerasSeeing(plan.cameras, p, normal);
      if (seen < 3) continue;
      const noisy = p.map((v) => v + NOISE * (2 * next() - 1)) as Vec3;
      positions.push(...noisy);
      visibility.push(seen);
      for (let k = 0; k < 3; k++) {
        low[k] = Math.min(low[k], noisy[k]);
        high[k] = Math.max(high[k], noisy[k]);
      }
    }
    parts.push({ name: surface.name, start, end: visibility.length });
  }
  const surface = visibility.length;
  const draw = ([min, max]: [Vec3, Vec3], accept: (p: Vec3) => boolean, views: () => number) => {
    const start = visibility.length;
    while (visibility.length < start + OUTLIERS) {
      const p = [0, 1, 2].map((k) => min[k] + next() * (max[k] - min[k])) as Vec3;
      if (!accept(p)) continue;
      positions.push(...p);
      visibility.push(views());
    }
    return [start, visibility.length] as [number, number];
  };
  const farFewViews = draw(plan.farBox, (p) => inFrontOfAny(plan.cameras, p), () => 1 + Math.floor(next() * 2));
  const farSparse = draw(plan.farBox, (p) => inFrontOfAny(plan.cameras, p), () => 3 + Math.floor(next() * 4));
  const behind = draw(plan.behindBox, (p) => !inFrontOfAny(plan.cameras, p), () => 3 + Math.floor(next() * 4));
  // Turn about y by `turn` and move: x' = c·x + s·z, z' = −s·x + c·z.
  const c = Math.cos(plan.turn), s = Math.sin(plan.turn);
  const place = (p: ArrayLike<number>, withMove: boolean): Vec3 => [
    c * p[0] + s * p[2] + (withMove ? plan.move[0] : 0),
    p[1] + (withMove ? plan.move[1] : 0),
    -s * p[0] + c * p[2] + (withMove ? plan.move[2] : 0),
  ];
  const placed = new Float32Array(positions.length);
  for (let i = 0; i < positions.length; i += 3) placed.set(place(positions.slice(i, i + 3), true), i);
  return {
    name: plan.name,
    cameras: plan.cameras.map(({ centre, axis }) => ({ centre: place(centre, true), axis: place(axis, false) })),
    positions: placed,
    visibility: Uint32Array.from(visibility),
    surface,
    parts,
    farFewViews,
    farSparse,
    behind,
    surfaceDiagonal: Math.hypot(high[0] - low[0], high[1] - low[1], high[2] - low[2]),
  };
}

/** (1) An orbit: 24 cameras on a 3 m circle, 1.5 m up, looking at a 0.5 m ball resting on a 1.7 m disc of floor. */
export function orbitRig(): CaptureRig {
  const target: Vec3 = [0, -0.5, 0];
  const cameras = Array.from({ length: 24 }, (_, i) => {
    const a = (i / 24) * 2 * Math.PI;
    return cameraLookingAt([3 * Math.cos(a), -1.5, 3 * Math.sin(a)], target);
  });
  return buildRig({
    name: "orbit",
    cameras,
    surfaces: [
      { name: "object", centre: target, radius: 0.5, density: 3000 },
      { name: "ground", centre: [0, 0, 0], radius: 1.7, density: 2000 },
    ],
    farBox: [[-40, -10, -40], [40, 0, 40]],
    behindBox: [[-1, -22, -1], [1, -15, 1]],
    turn: 0.3,
    move: [0.4, 0.1, -0.3],
    seed: 1,
  });
}

/**
 * (2) A facade: a 12 m wide, 7 m tall wall with 3 m of pavement in front, photographed from 13 places along a
 * line 7 m away, looking at it (yaw within ±4°, 8° up): the optical axes are nearly parallel.
 */
export function facadeRig(): CaptureRig {
  const next = random(2);
  const cameras = Array.from({ length: 13 }, (_, i) =>
    cameraLooking([-5 + (10 * i) / 12, -1.6, -7], ((next() * 8 - 4) * Math.PI) / 180, (8 * Math.PI) / 180),
  );
  return buildRig({
    name: "facade",
    cameras,
    surfaces: [
      { name: "wall", corner: [-6, -7, 0], edgeA: [12, 0, 0], edgeB: [0, 7, 0], normal: [0, 0, -1], density: 500 },
      { name: "ground", corner: [-6, 0, -3], edgeA: [12, 0, 0], edgeB: [0, 0, 3], normal: [0, -1, 0], density: 500 },
    ],
    farBox: [[-40, -15, 20], [40, 0, 50]],
    behindBox: [[-10, -4, -20], [10, 0.5, -12]],
    turn: (35 * Math.PI) / 180,
    move: [2, 0, 1],
    seed: 3,
  });
}

/** The four walls of a `width` × `depth` room or courtyard of `height` (centred on the origin, floor at y = 0), seen from inside. */
function wallsAround(width: number, depth: number, height: number, density: number): Patch[] {
  const w = width / 2, d = depth / 2;
  return [
    { name: "wall", corner: [-w, -height, d], edgeA: [width, 0, 0], edgeB: [0, height, 0], normal: [0, 0, -1], density },
    { name: "wall", corner: [-w, -height, -d], edgeA: [width, 0, 0], edgeB: [0, height, 0], normal: [0, 0, 1], density },
    { name: "wall", corner: [w, -height, -d], edgeA: [0, 0, depth], edgeB: [0, height, 0], normal: [-1, 0, 0], density },
    { name: "wall", corner: [-w, -height, -d], edgeA: [0, 0, depth], edgeB: [0, height, 0], normal: [1, 0, 0], density },
  ];
}

/**
 * (3a) A courtyard walk facing out: 24 cameras on a 2 m circle in the middle of a 16 × 12 m courtyard with 6 m
 * walls, each looking outwards (10° up) at the walls.
 */
export function courtyardRig(): CaptureRig {
  const cameras = Array.from({ length: 24 }, (_, i) => {
    const a = (i / 24) * 2 * Math.PI;
    return cameraLooking([2 * Math.sin(a), -1.6, 2 * Math.cos(a)], a, (10 * Math.PI) / 180);
  });
  return buildRig({
    name: "courtyard",
    cameras,
    surfaces: [...wallsAround(16, 12, 6, 300), { name: "ground", corner: [-8, 0, -6], edgeA: [16, 0, 0], edgeB: [0, 0, 12], normal: [0, -1, 0], density: 150 }],
    farBox: [[-70, -20, -70], [70, 0, 70]],
    behindBox: [[-1.8, -3, -1.8], [1.8, 0, 1.8]],
    turn: (20 * Math.PI) / 180,
    move: [-1, 0.2, 0.5],
    seed: 4,
  });
}

/**
 * (3b) A room walk facing in: 20 cameras on a loop 0.6 m inside the walls of an 8 × 6 m room, 3 m high, each
 * looking across the room (towards its middle, yaw jittered ±10°, 5° down) at the opposite walls, floor and ceiling.
 */
export function roomRig(): CaptureRig {
  const next = random(5);
  const cameras = Array.from({ length: 20 }, (_, i) => {
    const a = (i / 20) * 2 * Math.PI;
    const centre: Vec3 = [3.4 * Math.sin(a), -1.5, 2.4 * Math.cos(a)];
    const inwards = Math.atan2(-centre[0], -centre[2]) + ((next() * 20 - 10) * Math.PI) / 180;
    return cameraLooking(centre, inwards, (-5 * Math.PI) / 180);
  });
  return buildRig({
    name: "room",
    cameras,
    surfaces: [
      ...wallsAround(8, 6, 3, 400),
      { name: "ground", corner: [-4, 0, -3], edgeA: [8, 0, 0], edgeB: [0, 0, 6], normal: [0, -1, 0], density: 300 },
      { name: "ceiling", corner: [-4, -3, -3], edgeA: [8, 0, 0], edgeB: [0, 0, 6], normal: [0, 1, 0], density: 500 },
    ],
    farBox: [[-40, -6, -40], [40, 0, 40]],
    behindBox: [[-3, -90, -3], [3, -70, 3]],
    turn: (-50 * Math.PI) / 180,
    move: [0.3, 0, 0.7],
    seed: 6,
  });
}

/**
 * (4) A forward walk down a corridor (or a street between two house fronts): 16 cameras 1 m apart along the
 * middle of a 6 m wide, 4 m high corridor, looking along it (yaw within ±5°), with its far end 15 m past the last one.
 */
export function corridorRig(): CaptureRig {
  const next = random(7);
  const cameras = Array.from({ length: 16 }, (_, i) => cameraLooking([next() * 0.4 - 0.2, -1.6, i], ((next() * 10 - 5) * Math.PI) / 180, 0));
  return buildRig({
    name: "corridor",
    cameras,
    surfaces: [
      { name: "wall", corner: [-3, -4, -2], edgeA: [0, 0, 32], edgeB: [0, 4, 0], normal: [1, 0, 0], density: 250 },
      { name: "wall", corner: [3, -4, -2], edgeA: [0, 0, 32], edgeB: [0, 4, 0], normal: [-1, 0, 0], density: 250 },
      { name: "wall", corner: [-3, -4, 30], edgeA: [6, 0, 0], edgeB: [0, 4, 0], normal: [0, 0, -1], density: 250 },
      { name: "ground", corner: [-3, 0, -2], edgeA: [6, 0, 0], edgeB: [0, 0, 32], normal: [0, -1, 0], density: 250 },
    ],
    farBox: [[-30, -15, 70], [30, 0, 120]],
    behindBox: [[-4, -4, -15], [4, 0, -6]],
    turn: (-25 * Math.PI) / 180,
    move: [1, 0, -2],
    seed: 8,
  });
}

export const CAPTURE_RIGS = [orbitRig, facadeRig, courtyardRig, roomRig, corridorRig];
