import type { Object3D } from "three";
import type { Bounds } from "./bounds";

/** A decoded model ready to be added to the scene (or a scene of several: scene-model.ts). */
export interface LoadedModel {
  /** "mixed": a scene with both splat and mesh parts. */
  kind: "mesh" | "splat" | "mixed";
  object: Object3D;
  /** Robust world-space bounds used to frame the camera. */
  bounds: Bounds;
  splatCount?: number;
  /** Frees the model's GPU and worker resources. */
  dispose(): void;
}
