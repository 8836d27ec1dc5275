/**
 * The scene gizmo (the Builder, issue 6): click a part of a scene (loadScene) to select it, then
 * move, turn or scale it with three's TransformControls. Orbiting stays as it is; while a gizmo
 * handle is dragged the orbit controls pause. Scaling is uniform and never below MIN_PART_SCALE.
 */
import type { Object3D } from "three";
import { TransformControls } from "three/addons/controls/TransformControls.js";
import type { Vec3 } from "./bounds";
import { applyPartTransform, getPartTransform, normalizePartTransform } from "./part-transform";
import { onClick, pickPart } from "./picking";
import { SNAP_STEPS, uniformScaleFrom } from "./transform-snap";
import type { PartTransform, Viewer } from "./types";

export { getPartTransform } from "./part-transform";

export type SceneGizmoMode = "translate" | "rotate" | "scale";
export type SceneGizmoSpace = "world" | "local";

export interface SceneGizmoOptions {
  viewer: Viewer;
  /** A click selected a part (or empty space: null), or the selected part left the scene. Not called for select(). */
  onSelect?: (id: string | null) => void;
  /** The selected part moved, during a drag (every pointer move). */
  onChange?: (id: string, transform: PartTransform) => void;
  /** A drag ended: one undoable change ("unsaved changes"). */
  onCommit?: (id: string, transform: PartTransform) => void;
}

export interface SceneGizmo {
  /** The selected part's id, or null. */
  readonly selected: string | null;
  /** Shows the gizmo on a part (null hides it); an id not in the scene selects nothing. */
  select(id: string | null): void;
  setMode(mode: SceneGizmoMode): void;
  /** Axes of the scene ("world") or of the part ("local"); scaling is always along the part's axes. */
  setSpace(space: SceneGizmoSpace): void;
  /** Snaps drags to 0.1 model units, 15° and 0.1 scale steps. */
  setSnap(on: boolean): void;
  /**
   * Puts a transform on a part (numeric edits in a form); false when the scene has no such part.
   * Throws a readable Error for a transform that is not finite numbers. Calls neither onChange nor onCommit.
   */
  setTransform(id: string, transform: PartTransform): boolean;
  /**
   * Runs `task` with the gizmo out of the picture (a thumbnail of the scene), the selection untouched:
   * afterwards it shows again if a part is selected then.
   */
  withoutGizmo<T>(task: () => Promise<T>): Promise<T>;
  /** Removes the gizmo and its listeners; the parts stay where they are. Idempotent. */
  dispose(): void;
}

export function createSceneGizmo({ viewer, onSelect, onChange, onCommit }: SceneGizmoOptions): SceneGizmo {
  const { scene, camera, controls: orbit } = viewer.stage;
  const gizmo = new TransformControls(camera, viewer.canvas);
  const helper = gizmo.getHelper();
  scene.add(helper);
  let selected: string | null = null;
  let snap = false;
  let disposed = false;
  /** The part being dragged and its scale when the drag began (uniform scaling). */
  let drag: { id: string; startScale: Vec3 } | null = null;
  /** Whether the current press went to a gizmo handle (then it is no click on the scene). */
  let pressOnGizmo = false;
  /** Whether a drag paused the orbit controls (they are given back when it ends). */
  let orbitPaused = false;
  gizmo.enabled = viewer.navigationMode === "orbit";

  const partGroup = (id: string | null): Object3D | undefined => (id === null ? undefined : viewer.stage.parts().get(id));

  function select(id: string | null): void {
    if (disposed) return;
    const group = partGroup(id);
    if (group) {
      gizmo.attach(group);
      selected = id;
    } else {
      gizmo.detach();
      selected = null;
    }
    viewer.stage.requestRender();
  }

  const applySnap = () => {
    gizmo.setTranslationSnap(snap ? SNAP_STEPS.translation : null);
    gizmo.setRotationSnap(snap ? SNAP_STEPS.rotation : null);
    // Scale snapping happens in onObjectChange (uniformScaleFrom), after the uniform scale is chosen.
  };
  applySnap();

  const requestRender = () => viewer.stage.requestRender();
  const resumeOrbit = () => {
    if (orbitPaused) orbit.enabled = true;
    orbitPaused = false;
  };
  const onDraggingChanged = (event: { value: unknown }) => {
    if (!event.value) {
      resumeOrbit();
    } else if (orbit.enabled) {
      orbit.enabled = false;
      orbitPaused = true;
    }
  };
  const onMouseDown = () => {
    const group = gizmo.object;
    if (!group || selected === null) return;
    drag = { id: selected, startScale: [group.scale.x, group.scale.y, group.scale.z] };
  };
  const onObjectChange = () => {
    const group = gizmo.object;
    if (!group || !drag) return;
    if (gizmo.mode === "scale") {
      const scale = uniformScaleFrom(drag.startScale, [group.scale.x, group.scale.y, group.scale.z], snap ? SNAP_STEPS.scale : null);
      group.scale.setScalar(scale);
    }
    viewer.stage.requestRender();
    onChange?.(drag.id, getPartTransform(group));
  };
  const onMouseUp = () => {
    const group = gizmo.object;
    const ended = drag;
    drag = null;
    if (group && ended) onCommit?.(ended.id, getPartTransform(group));
  };
  gizmo.addEventListener("change", requestRender);
  gizmo.addEventListener("dragging-changed", onDraggingChanged);
  gizmo.addEventListener("mouseDown", onMouseDown);
  gizmo.addEventListener("objectChange", onObjectChange);
  gizmo.addEventListener("mouseUp", onMouseUp);

  // Registered after the gizmo's own pointerdown listener: `dragging` tells whether it took the press.
  const onPointerDown = () => {
    pressOnGizmo = gizmo.dragging;
  };
  viewer.canvas.addEventListener("pointerdown", onPointerDown);
  const detachClicks = onClick(viewer.canvas, (event) => {
    if (pressOnGizmo || viewer.navigationMode !== "orbit") return;
    const id = pickPart(viewer, event.clientX, event.clientY);
    if (id === selected) return;
    select(id);
    onSelect?.(selected);
  });

  // A selected part that leaves the scene (removePart, a new load) is deselected before the next frame.
  const offParts = viewer.on("parts", (ids) => {
    if (selected !== null && !ids.includes(selected)) {
      drag = null; // a drag in progress ends with the press (dragging-changed gives the orbit controls back)
      select(null);
      onSelect?.(null);
    }
  });
  // Fly mode turns the camera on drags: the gizmo rests meanwhile.
  const offNavigation = viewer.on("navigation", (mode) => {
    gizmo.enabled = mode === "orbit";
  });

  return {
    get selected() {
      return selected;
    },
    select,
    setMode(mode) {
      gizmo.setMode(mode);
    },
    setSpace(space) {
      gizmo.setSpace(space);
    },
    setSnap(on) {
      snap = on;
      applySnap();
    },
    async withoutGizmo(task) {
      helper.visible = false;
      viewer.stage.requestRender();
      try {
        return await task();
      } finally {
        helper.visible = gizmo.object !== undefined;
        viewer.stage.requestRender();
      }
    },
    setTransform(id, transform) {
      const group = partGroup(id);
      if (!group) return false;
      applyPartTransform(group, normalizePartTransform(transform));
      viewer.stage.requestRender();
      return true;
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      offParts();
      offNavigation();
      detachClicks();
      viewer.canvas.removeEventListener("pointerdown", onPointerDown);
      gizmo.removeEventListener("change", requestRender);
      gizmo.removeEventListener("dragging-changed", onDraggingChanged);
      gizmo.removeEventListener("mouseDown", onMouseDown);
      gizmo.removeEventListener("objectChange", onObjectChange);
      gizmo.removeEventListener("mouseUp", onMouseUp);
      gizmo.detach();
      gizmo.dispose();
      scene.remove(helper);
      resumeOrbit();
      viewer.stage.requestRender();
    },
  };
}
