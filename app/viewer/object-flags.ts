/**
 * Marks on three.js objects that picking needs: which objects are splats (hits without a face
 * count) and which group is a scene part (its id).
 */
import type { Object3D } from "three";

const SPLAT_FLAG = "scanroomSplat";
const PART_ID = "scanroomPartId";

/** Marks a Spark SplatMesh (load-splat.ts): its ray hits have no face but are surface hits. */
export function markSplatObject(object: Object3D): void {
  object.userData[SPLAT_FLAG] = true;
}

export function isSplatObject(object: Object3D): boolean {
  return object.userData[SPLAT_FLAG] === true;
}

/** Marks the transform group of a scene part (scene-model.ts). */
export function markPartGroup(group: Object3D, id: string): void {
  group.userData[PART_ID] = id;
}

/** The id of the scene part that `object` belongs to (itself or an ancestor), or null. */
export function partIdOf(object: Object3D | null): string | null {
  for (let node = object; node; node = node.parent) {
    const id: unknown = node.userData[PART_ID];
    if (typeof id === "string") return id;
  }
  return null;
}
