import { BoxGeometry, BufferGeometry, Float32BufferAttribute, Group, Mesh, MeshBasicMaterial, PerspectiveCamera, Points, Vector3, type Object3D } from "three";
import { describe, expect, it } from "vitest";
import type { LoadedModel } from "./loaded-model";
import { markSplatObject } from "./object-flags";
import { IDENTITY_TRANSFORM } from "./part-transform";
import { pickPart, pickSurface } from "./picking";
import { createSceneModel } from "./scene-model";
import type { Viewer } from "./types";

const SIZE = 200;

/** Just what picking reads of a viewer: the canvas rectangle, the camera and the model. */
function fakeViewer(model: LoadedModel | null): { viewer: Viewer; camera: PerspectiveCamera } {
  const camera = new PerspectiveCamera(45, 1, 0.1, 100);
  camera.position.set(0, 0, 10);
  camera.lookAt(0, 0, 0);
  const canvas = { getBoundingClientRect: () => ({ left: 0, top: 0, width: SIZE, height: SIZE }) };
  const viewer = { canvas, stage: { camera, model: () => model } } as unknown as Viewer;
  return { viewer, camera };
}

/** Page coordinates of a world point. */
function screenOf(camera: PerspectiveCamera, point: [number, number, number]): [number, number] {
  camera.updateMatrixWorld();
  const ndc = new Vector3(...point).project(camera);
  return [((ndc.x + 1) / 2) * SIZE, ((1 - ndc.y) / 2) * SIZE];
}

function asModel(object: Object3D, kind: LoadedModel["kind"] = "mesh"): LoadedModel {
  return { kind, object, bounds: { min: [-0.5, -0.5, -0.5], max: [0.5, 0.5, 0.5] }, dispose: () => undefined };
}

function box(): Object3D {
  return new Mesh(new BoxGeometry(1, 1, 1), new MeshBasicMaterial());
}

/** One point standing for a splat: its ray hits have no face, like Spark's SplatMesh. */
function pointCloud(splat: boolean): Object3D {
  const geometry = new BufferGeometry();
  geometry.setAttribute("position", new Float32BufferAttribute([0, 0, 0], 3));
  const points = new Points(geometry);
  if (splat) markSplatObject(points);
  return points;
}

function mixedScene() {
  const scene = createSceneModel();
  scene.add({ id: "left-box", format: "glb", model: asModel(box()), transform: { ...IDENTITY_TRANSFORM, position: [-2, 0, 0] } });
  scene.add({ id: "right-box", format: "glb", model: asModel(box()), transform: { ...IDENTITY_TRANSFORM, position: [2, 0, 0] } });
  scene.add({ id: "splat", format: "ply", model: asModel(pointCloud(true), "splat"), transform: { ...IDENTITY_TRANSFORM, position: [0, 2.5, 0] } });
  scene.add({ id: "lines", format: "glb", model: asModel(pointCloud(false)), transform: { ...IDENTITY_TRANSFORM, position: [0, -2.5, 0] } });
  scene.object.updateMatrixWorld(true);
  return scene;
}

describe("pickPart", () => {
  it("names the part under the pointer", () => {
    const { viewer, camera } = fakeViewer(mixedScene());
    expect(pickPart(viewer, ...screenOf(camera, [2, 0, 0]))).toBe("right-box");
    expect(pickPart(viewer, ...screenOf(camera, [-2, 0.3, 0]))).toBe("left-box");
  });

  it("finds splats without a face, but not other faceless objects of a mesh", () => {
    const { viewer, camera } = fakeViewer(mixedScene());
    expect(pickPart(viewer, ...screenOf(camera, [0, 2.5, 0]))).toBe("splat");
    expect(pickPart(viewer, ...screenOf(camera, [0, -2.5, 0]))).toBeNull();
  });

  it("is null on empty space and for a single model", () => {
    const { viewer, camera } = fakeViewer(mixedScene());
    expect(pickPart(viewer, ...screenOf(camera, [0, 0, 0]))).toBeNull();
    const single = new Group().add(box());
    const alone = fakeViewer(asModel(single));
    expect(pickPart(alone.viewer, ...screenOf(alone.camera, [0, 0, 0]))).toBeNull();
    expect(pickSurface(alone.viewer, ...screenOf(alone.camera, [0, 0, 0]))).not.toBeNull();
  });
});

describe("pickSurface on a mixed scene", () => {
  it("gives the face normal on a mesh part and the view direction on a splat part", () => {
    const { viewer, camera } = fakeViewer(mixedScene());
    const onBox = pickSurface(viewer, ...screenOf(camera, [2, 0, 0]))!;
    expect(onBox.point[2]).toBeCloseTo(0.5, 6);
    expect(onBox.normal).toEqual([0, 0, 1]);
    const onSplat = pickSurface(viewer, ...screenOf(camera, [0, 2.5, 0]))!;
    expect(onSplat.normal[2]).toBeGreaterThan(0.9);
  });
});
