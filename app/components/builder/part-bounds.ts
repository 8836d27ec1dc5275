/**
 * Bounds of the parts the viewer shows (meshes through three's Box3, splats through Spark's own box of
 * their centres), and the Builder's "arrange": models just added go side by side (arrange.ts).
 * Browser-only (three.js); imported lazily by the editor.
 */
import { Box3, Vector3, type Object3D } from "three";
import type { Viewer } from "~/viewer";
import { arrangeInRow, unionBoxes, type Box } from "./arrange";
import type { EditorTransform } from "./scene-editor-state";

type SplatLike = Object3D & { getBoundingBox(centersOnly?: boolean): Box3 };
const isSplat = (object: Object3D): object is SplatLike => typeof (object as Partial<SplatLike>).getBoundingBox === "function";

/** The world-space box of everything drawn under `root`. */
export function worldBox(root: Object3D): Box3 {
  root.updateMatrixWorld(true);
  const box = new Box3();
  root.traverse((object) => {
    if (isSplat(object)) {
      const local = object.getBoundingBox(true);
      if (!local.isEmpty()) box.union(local.clone().applyMatrix4(object.matrixWorld));
    } else if ((object as { isMesh?: boolean }).isMesh) {
      box.union(new Box3().setFromObject(object, false));
    }
  });
  return box;
}

const toBox = (box: Box3): Box => ({ min: box.min.toArray() as Box["min"], max: box.max.toArray() as Box["max"] });

/**
 * Lays out `ids` (null: every part) side by side, after the other parts; answers the moved parts' new
 * transforms (rotation and scale kept). Parts with nothing to measure stay where they are.
 */
export function arrangeParts(viewer: Viewer, ids: string[] | null): Map<string, EditorTransform> {
  const parts = viewer.stage.parts();
  const wanted = new Set(ids ?? parts.keys());
  const moving: Array<{ id: string; object: Object3D; box: Box }> = [];
  const staying: Box[] = [];
  for (const [id, object] of parts) {
    const box = worldBox(object);
    if (box.isEmpty()) continue;
    if (wanted.has(id)) {
      // Relative to the part's own position: where its bounds start once it is moved there.
      const origin = object.getWorldPosition(new Vector3());
      moving.push({ id, object, box: toBox(box.clone().translate(origin.negate())) });
    } else {
      staying.push(toBox(box));
    }
  }
  const positions = arrangeInRow(
    moving.map((part) => part.box),
    unionBoxes(staying),
  );
  const result = new Map<string, EditorTransform>();
  moving.forEach(({ id, object }, index) => {
    result.set(id, {
      position: positions[index],
      quaternion: object.quaternion.toArray() as EditorTransform["quaternion"],
      scale: object.scale.toArray() as EditorTransform["scale"],
    });
  });
  return result;
}
