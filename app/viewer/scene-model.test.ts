import { BoxGeometry, Group, Mesh, MeshBasicMaterial, Quaternion, Vector3 } from "three";
import { describe, expect, it } from "vitest";
import type { LoadedModel } from "./loaded-model";
import { partIdOf } from "./object-flags";
import { IDENTITY_TRANSFORM } from "./part-transform";
import { createSceneModel, isSceneModel, sceneKind } from "./scene-model";

function fakeModel(kind: "mesh" | "splat", splatCount?: number) {
  const object = new Group();
  let disposed = 0;
  const model: LoadedModel = {
    kind,
    object,
    bounds: { min: [-0.5, -0.5, -0.5], max: [0.5, 0.5, 0.5] },
    ...(splatCount !== undefined ? { splatCount } : {}),
    dispose: () => {
      disposed++;
    },
  };
  return { model, disposedTimes: () => disposed };
}

describe("sceneKind", () => {
  it("names scenes by what their parts are", () => {
    expect(sceneKind(["mesh", "mesh"])).toBe("mesh");
    expect(sceneKind(["splat"])).toBe("splat");
    expect(sceneKind(["splat", "mesh"])).toBe("mixed");
    expect(sceneKind([])).toBe("mesh");
  });
});

describe("createSceneModel", () => {
  it("puts each part in its own transform group under one root", () => {
    const scene = createSceneModel();
    const chair = fakeModel("mesh");
    const room = fakeModel("splat", 1000);
    scene.add({ id: "chair", name: "Chair", format: "glb", model: chair.model, transform: { ...IDENTITY_TRANSFORM, position: [2, 0, 0] } });
    scene.add({ id: "room", format: "sog", model: room.model, transform: IDENTITY_TRANSFORM });

    expect(isSceneModel(scene)).toBe(true);
    expect([...scene.groups.keys()]).toEqual(["chair", "room"]);
    const chairGroup = scene.groups.get("chair")!;
    expect(chairGroup.parent).toBe(scene.object);
    expect(chairGroup.children).toEqual([chair.model.object]);
    expect(chairGroup.position.toArray()).toEqual([2, 0, 0]);
    expect(chairGroup.name).toBe("Chair");
    expect(partIdOf(chair.model.object)).toBe("chair");
    expect(scene.kind).toBe("mixed");
    expect(scene.format).toBe("glb");
    expect(scene.splatCount).toBe(1000);
  });

  it("frames the union of the parts where they are now", () => {
    const scene = createSceneModel();
    scene.add({ id: "a", format: "glb", model: fakeModel("mesh").model, transform: { ...IDENTITY_TRANSFORM, position: [-3, 0, 0] } });
    scene.add({ id: "b", format: "glb", model: fakeModel("mesh").model, transform: { ...IDENTITY_TRANSFORM, position: [3, 0, 0], scale: [2, 2, 2] } });
    expect(scene.bounds).toEqual({ min: [-3.5, -1, -1], max: [4, 1, 1] });

    // Moved by the gizmo (a part's group): the bounds follow without a reload.
    const b = scene.groups.get("b")!;
    b.position.set(0, 5, 0);
    b.quaternion.copy(new Quaternion().setFromAxisAngle(new Vector3(0, 0, 1), Math.PI / 2));
    const { min, max } = scene.bounds;
    expect(min[0]).toBeCloseTo(-3.5, 9);
    expect(max[1]).toBeCloseTo(6, 9);
    expect(max[0]).toBeCloseTo(1, 9);
  });

  it("takes a part out and frees it; the others stay", () => {
    const scene = createSceneModel();
    const a = fakeModel("mesh");
    const b = fakeModel("splat", 10);
    scene.add({ id: "a", format: "glb", model: a.model, transform: IDENTITY_TRANSFORM });
    scene.add({ id: "b", format: "ply", model: b.model, transform: IDENTITY_TRANSFORM });
    expect(scene.remove("b")).toBe(true);
    expect(scene.remove("b")).toBe(false);
    expect(b.disposedTimes()).toBe(1);
    expect(a.disposedTimes()).toBe(0);
    expect(scene.object.children).toHaveLength(1);
    expect(scene.kind).toBe("mesh");
    expect(scene.splatCount).toBeUndefined();
  });

  it("refuses a second part with the same id", () => {
    const scene = createSceneModel();
    scene.add({ id: "a", format: "glb", model: fakeModel("mesh").model, transform: IDENTITY_TRANSFORM });
    expect(() => scene.add({ id: "a", format: "glb", model: fakeModel("mesh").model, transform: IDENTITY_TRANSFORM })).toThrow('already has a part "a"');
  });

  it("frees every part on dispose", () => {
    const scene = createSceneModel();
    const parts = [fakeModel("mesh"), fakeModel("splat", 5)];
    parts.forEach((part, i) => scene.add({ id: String(i), format: "glb", model: part.model, transform: IDENTITY_TRANSFORM }));
    scene.dispose();
    expect(parts.map((part) => part.disposedTimes())).toEqual([1, 1]);
    expect(scene.parts.size).toBe(0);
    expect(scene.object.children).toHaveLength(0);
  });

  it("has a unit box as bounds while empty, so the camera has something to look at", () => {
    const scene = createSceneModel();
    expect(scene.bounds).toEqual({ min: [-0.5, -0.5, -0.5], max: [0.5, 0.5, 0.5] });
    expect(scene.format).toBeNull();
  });

  it("is not mistaken for a single model", () => {
    const mesh = new Mesh(new BoxGeometry(), new MeshBasicMaterial());
    expect(isSceneModel({ kind: "mesh", object: mesh, bounds: { min: [0, 0, 0], max: [1, 1, 1] }, dispose: () => undefined })).toBe(false);
    expect(isSceneModel(null)).toBe(false);
  });
});
