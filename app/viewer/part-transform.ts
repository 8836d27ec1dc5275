/**
 * Transforms of scene parts (the Builder's scenes): validation of transforms from outside, reading
 * and writing them on three.js objects, and the matrix they make (pure, for bounds in node tests).
 */
import type { Object3D } from "three";
import type { Vec3 } from "./bounds";
import type { PartTransform, Quat } from "./types";

/** No part gets smaller than this (a zero or negative scale would make it vanish or turn inside out). */
export const MIN_PART_SCALE = 0.001;

export const IDENTITY_TRANSFORM: PartTransform = { position: [0, 0, 0], quaternion: [0, 0, 0, 1], scale: [1, 1, 1] };

export function clampScale(value: number): number {
  return Math.max(MIN_PART_SCALE, value);
}

function finiteTuple(value: unknown, length: number, what: string): number[] {
  if (!Array.isArray(value) || value.length !== length || !value.every((n) => typeof n === "number" && Number.isFinite(n))) {
    throw new Error(`The ${what} must be ${length} finite numbers`);
  }
  return value as number[];
}

/**
 * A transform from outside (saved scenes, forms) made safe to apply: finite numbers, a unit
 * quaternion, every scale at least MIN_PART_SCALE. Throws a readable Error otherwise.
 */
export function normalizePartTransform(input: unknown): PartTransform {
  if (!input || typeof input !== "object") throw new Error("A part's transform is missing");
  const { position, quaternion, scale } = input as Record<string, unknown>;
  const [px, py, pz] = finiteTuple(position, 3, "position");
  const [qx, qy, qz, qw] = finiteTuple(quaternion, 4, "rotation (quaternion)");
  const [sx, sy, sz] = finiteTuple(scale, 3, "scale");
  const length = Math.hypot(qx, qy, qz, qw);
  if (length < 1e-9) throw new Error("The rotation (quaternion) must not be zero");
  return {
    position: [px, py, pz],
    quaternion: [qx / length, qy / length, qz / length, qw / length],
    scale: [clampScale(sx), clampScale(sy), clampScale(sz)],
  };
}

/** The transform an object (a part's group) carries now. */
export function getPartTransform(object: Object3D): PartTransform {
  const { position: p, quaternion: q, scale: s } = object;
  return { position: [p.x, p.y, p.z], quaternion: [q.x, q.y, q.z, q.w], scale: [s.x, s.y, s.z] };
}

/** Puts a (normalized) transform on an object. */
export function applyPartTransform(object: Object3D, transform: PartTransform): void {
  object.position.fromArray(transform.position);
  object.quaternion.fromArray(transform.quaternion);
  object.scale.fromArray(transform.scale);
  object.updateMatrix();
}

/** The 4×4 matrix (column-major, like three's Matrix4.elements) of translation · rotation · scale. */
export function partMatrix({ position, quaternion, scale }: PartTransform): number[] {
  const [x, y, z, w] = quaternion as Quat;
  const [sx, sy, sz] = scale as Vec3;
  const x2 = x + x;
  const y2 = y + y;
  const z2 = z + z;
  const xx = x * x2;
  const xy = x * y2;
  const xz = x * z2;
  const yy = y * y2;
  const yz = y * z2;
  const zz = z * z2;
  const wx = w * x2;
  const wy = w * y2;
  const wz = w * z2;
  return [
    (1 - (yy + zz)) * sx,
    (xy + wz) * sx,
    (xz - wy) * sx,
    0,
    (xy - wz) * sy,
    (1 - (xx + zz)) * sy,
    (yz + wx) * sy,
    0,
    (xz + wy) * sz,
    (yz - wx) * sz,
    (1 - (xx + yy)) * sz,
    0,
    position[0],
    position[1],
    position[2],
    1,
  ];
}
