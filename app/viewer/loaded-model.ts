import type { Object3D } from "three";
import type { Bounds } from "./bounds";

/** A decoded model ready to be added to the scene. */
export interface LoadedModel {
  kind: "mesh" | "splat";
  object: Object3D;
  /** Robust world-space bounds used to frame the camera. */
  bounds: Bounds;
  splatCount?: number;
  /** Frees the model's GPU and worker resources. */
  dispose(): void;
}
