/**
 * A scene of several decoded models (the Builder's scenes), shown as one LoadedModel: each part in
 * its own transform group under one root. Kind, bounds and splat count follow the parts live, so
 * they stay right while parts are added, removed or moved (scene gizmo).
 */
import { Group, type Object3D } from "three";
import type { ModelFormat } from "../formats/model-format";
import type { Bounds } from "./bounds";
import type { LoadedModel } from "./loaded-model";
import { markPartGroup } from "./object-flags";
import { applyPartTransform, getPartTransform, partMatrix } from "./part-transform";
import { transformBounds, unionBounds } from "./scene-bounds";
import type { PartTransform } from "./types";

export interface ScenePart {
  id: string;
  name?: string;
  format: ModelFormat;
  /** Carries the part's transform; the decoded model sits inside it unchanged (a splat keeps its upright flip). */
  group: Group;
  model: LoadedModel;
}

export interface SceneModel extends LoadedModel {
  readonly isScene: true;
  /** The parts in the order they were added. */
  readonly parts: ReadonlyMap<string, ScenePart>;
  /** Each part's transform group, by id (what viewer.stage.parts() returns). */
  readonly groups: ReadonlyMap<string, Object3D>;
  /** The first part's format, or null while the scene is empty. */
  readonly format: ModelFormat | null;
  add(part: { id: string; name?: string; format: ModelFormat; model: LoadedModel; transform: PartTransform }): ScenePart;
  /** Takes a part out and frees it; false when there is no such part. */
  remove(id: string): boolean;
}

/** Where the camera looks at an empty scene: a unit box around the origin. */
const EMPTY_SCENE_BOUNDS: Bounds = { min: [-0.5, -0.5, -0.5], max: [0.5, 0.5, 0.5] };

export function isSceneModel(model: LoadedModel | null): model is SceneModel {
  return !!model && (model as Partial<SceneModel>).isScene === true;
}

export function sceneKind(kinds: Iterable<LoadedModel["kind"]>): LoadedModel["kind"] {
  let mesh = false;
  let splat = false;
  for (const kind of kinds) {
    if (kind === "mesh") mesh = true;
    else if (kind === "splat") splat = true;
    else return "mixed";
  }
  if (mesh && splat) return "mixed";
  return splat ? "splat" : "mesh";
}

export function createSceneModel(): SceneModel {
  const root = new Group();
  root.name = "scene";
  const parts = new Map<string, ScenePart>();
  const groups = new Map<string, Object3D>();

  function disposePart(part: ScenePart): void {
    part.group.remove(part.model.object);
    root.remove(part.group);
    part.model.dispose();
  }

  return {
    isScene: true,
    object: root,
    parts,
    groups,
    get kind() {
      return sceneKind([...parts.values()].map((part) => part.model.kind));
    },
    get bounds() {
      const moved = [...parts.values()].map((part) => transformBounds(part.model.bounds, partMatrix(getPartTransform(part.group))));
      return unionBounds(moved) ?? EMPTY_SCENE_BOUNDS;
    },
    get splatCount() {
      let count: number | undefined;
      for (const part of parts.values()) {
        if (part.model.splatCount !== undefined) count = (count ?? 0) + part.model.splatCount;
      }
      return count;
    },
    get format() {
      return parts.values().next().value?.format ?? null;
    },
    add({ id, name, format, model, transform }) {
      if (parts.has(id)) throw new Error(`The scene already has a part "${id}"`);
      const group = new Group();
      group.name = name ?? id;
      markPartGroup(group, id);
      applyPartTransform(group, transform);
      group.add(model.object);
      root.add(group);
      const part: ScenePart = { id, ...(name !== undefined ? { name } : {}), format, group, model };
      parts.set(id, part);
      groups.set(id, group);
      return part;
    },
    remove(id) {
      const part = parts.get(id);
      if (!part) return false;
      parts.delete(id);
      groups.delete(id);
      disposePart(part);
      return true;
    },
    dispose() {
      for (const part of parts.values()) disposePart(part);
      parts.clear();
      groups.clear();
    },
  };
}
