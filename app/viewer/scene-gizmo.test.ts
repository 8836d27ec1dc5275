import { Group, PerspectiveCamera, Scene, type Object3D } from "three";
import type { TransformControls } from "three/addons/controls/TransformControls.js";
import { describe, expect, it, vi } from "vitest";
import { Emitter } from "./emitter";
import { MIN_PART_SCALE } from "./part-transform";
import { createSceneGizmo } from "./scene-gizmo";
import type { PartTransform, Viewer, ViewerEvents } from "./types";

/**
 * What the gizmo uses of a viewer: the canvas (for its pointer listeners), the scene, camera,
 * orbit controls and the parts' groups. Pointer input itself needs a browser (e2e); here the
 * gizmo's own events stand in for a drag.
 */
function fakeViewer() {
  const canvas = Object.assign(new EventTarget(), {
    style: {} as CSSStyleDeclaration,
    getBoundingClientRect: () => ({ left: 0, top: 0, width: 100, height: 100 }),
  });
  const scene = new Scene();
  const root = new Group();
  scene.add(root);
  const parts = new Map<string, Object3D>();
  for (const id of ["chair", "table"]) {
    const group = new Group();
    root.add(group);
    parts.set(id, group);
  }
  const events = new Emitter<ViewerEvents>();
  const orbit = { enabled: true };
  const requestRender = vi.fn();
  const viewer = {
    canvas,
    navigationMode: "orbit",
    stage: { scene, camera: new PerspectiveCamera(), controls: orbit, parts: () => parts, model: () => null, requestRender },
  } as unknown as Viewer;
  viewer.on = (event, listener) => events.on(event, listener);
  return { viewer, scene, parts, events, orbit, requestRender };
}

/** The TransformControls behind the gizmo (its helper is the one object the gizmo adds to the scene). */
function controlsOf(scene: Scene): TransformControls {
  const helper = scene.children.find((child) => (child as { isTransformControlsRoot?: boolean }).isTransformControlsRoot);
  if (!helper) throw new Error("no gizmo helper in the scene");
  return (helper as unknown as { controls: TransformControls }).controls;
}

describe("createSceneGizmo", () => {
  it("shows the gizmo on the selected part and hides it for none", () => {
    const { viewer, scene, parts } = fakeViewer();
    const gizmo = createSceneGizmo({ viewer });
    const controls = controlsOf(scene);
    gizmo.select("chair");
    expect(gizmo.selected).toBe("chair");
    expect(controls.object).toBe(parts.get("chair"));
    expect(controls.getHelper().visible).toBe(true);
    gizmo.select("no-such-part");
    expect(gizmo.selected).toBeNull();
    expect(controls.getHelper().visible).toBe(false);
  });

  it("hides itself while a picture is taken, and shows again on what is selected when it ends", async () => {
    const { viewer, scene } = fakeViewer();
    const gizmo = createSceneGizmo({ viewer });
    const helper = controlsOf(scene).getHelper();
    gizmo.select("chair");
    let release!: () => void;
    const taken = gizmo.withoutGizmo(async () => {
      expect(helper.visible).toBe(false);
      await new Promise<void>((resolve) => (release = resolve));
      return "picture";
    });
    gizmo.select("table"); // the user picks another part meanwhile
    expect(gizmo.selected).toBe("table");
    release();
    expect(await taken).toBe("picture");
    expect(gizmo.selected).toBe("table");
    expect(helper.visible).toBe(true);
    await gizmo.withoutGizmo(async () => gizmo.select(null));
    expect(helper.visible).toBe(false);
  });

  it("pauses orbiting during a drag, reports changes with a uniform scale above zero, and commits at the end", () => {
    const { viewer, scene, parts, orbit, requestRender } = fakeViewer();
    const changes: Array<[string, PartTransform]> = [];
    const commits: Array<[string, PartTransform]> = [];
    const gizmo = createSceneGizmo({ viewer, onChange: (id, t) => changes.push([id, t]), onCommit: (id, t) => commits.push([id, t]) });
    const controls = controlsOf(scene);
    gizmo.select("table");
    gizmo.setMode("scale");
    const table = parts.get("table")!;

    controls.dragging = true; // what a press on a handle does
    expect(orbit.enabled).toBe(false);
    controls.dispatchEvent({ type: "mouseDown", mode: "scale" });
    table.scale.set(1, 2.5, 1); // the Y handle dragged
    requestRender.mockClear();
    controls.dispatchEvent({ type: "objectChange" });
    expect(table.scale.toArray()).toEqual([2.5, 2.5, 2.5]);
    expect(requestRender).toHaveBeenCalled();
    table.scale.set(-0.3, -0.3, -0.3); // dragged through the centre
    controls.dispatchEvent({ type: "objectChange" });
    expect(table.scale.toArray()).toEqual([MIN_PART_SCALE, MIN_PART_SCALE, MIN_PART_SCALE]);
    expect(changes.map(([id, t]) => [id, t.scale[0]])).toEqual([
      ["table", 2.5],
      ["table", MIN_PART_SCALE],
    ]);
    expect(commits).toEqual([]);

    controls.dispatchEvent({ type: "mouseUp", mode: "scale" });
    controls.dragging = false;
    expect(orbit.enabled).toBe(true);
    expect(commits).toHaveLength(1);
    expect(commits[0][0]).toBe("table");
    expect(commits[0][1].scale).toEqual([MIN_PART_SCALE, MIN_PART_SCALE, MIN_PART_SCALE]);
  });

  it("snaps drags when asked: 0.1 units, 15°, 0.1 scale", () => {
    const { viewer, scene, parts } = fakeViewer();
    const gizmo = createSceneGizmo({ viewer });
    const controls = controlsOf(scene);
    gizmo.setSnap(true);
    expect(controls.translationSnap).toBe(0.1);
    expect(controls.rotationSnap).toBeCloseTo(Math.PI / 12, 12);
    gizmo.select("chair");
    gizmo.setMode("scale");
    controls.dispatchEvent({ type: "mouseDown", mode: "scale" });
    parts.get("chair")!.scale.set(1.26, 1.26, 1.26);
    controls.dispatchEvent({ type: "objectChange" });
    expect(parts.get("chair")!.scale.x).toBeCloseTo(1.3, 12);
    gizmo.setSnap(false);
    expect(controls.translationSnap).toBeNull();
    expect(controls.rotationSnap).toBeNull();
  });

  it("applies numeric edits to a part, validated", () => {
    const { viewer, parts } = fakeViewer();
    const onChange = vi.fn();
    const gizmo = createSceneGizmo({ viewer, onChange });
    expect(gizmo.setTransform("chair", { position: [1, 2, 3], quaternion: [0, 0, 0, 2], scale: [0, 2, 2] })).toBe(true);
    const chair = parts.get("chair")!;
    expect(chair.position.toArray()).toEqual([1, 2, 3]);
    expect(chair.quaternion.toArray()).toEqual([0, 0, 0, 1]);
    expect(chair.scale.toArray()).toEqual([MIN_PART_SCALE, 2, 2]);
    expect(gizmo.setTransform("nothing", { position: [0, 0, 0], quaternion: [0, 0, 0, 1], scale: [1, 1, 1] })).toBe(false);
    expect(() => gizmo.setTransform("chair", { position: [0, NaN, 0], quaternion: [0, 0, 0, 1], scale: [1, 1, 1] })).toThrow("position");
    expect(onChange).not.toHaveBeenCalled();
  });

  it("lets go of a part that leaves the scene", () => {
    const { viewer, scene, parts, events } = fakeViewer();
    const onSelect = vi.fn();
    const gizmo = createSceneGizmo({ viewer, onSelect });
    gizmo.select("chair");
    parts.delete("chair");
    events.emit("parts", ["table"]);
    expect(gizmo.selected).toBeNull();
    expect(controlsOf(scene).object).toBeUndefined();
    expect(onSelect).toHaveBeenCalledWith(null);
  });

  it("takes its helper out of the scene on dispose", () => {
    const { viewer, scene } = fakeViewer();
    const gizmo = createSceneGizmo({ viewer });
    const before = scene.children.length;
    gizmo.select("chair");
    gizmo.dispose();
    gizmo.dispose();
    expect(scene.children.length).toBe(before - 1);
    expect(() => controlsOf(scene)).toThrow();
  });
});
