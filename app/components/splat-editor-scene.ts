import { BoxGeometry, EdgesGeometry, LineBasicMaterial, LineSegments, Matrix4, Vector3 } from "three";
import type { CropBox } from "~/editor/selection";
import type { ViewerStage } from "~/viewer";

/**
 * What the clean-up editor adds to the viewer's scene (browser): the crop box drawn in the splats'
 * own coordinates (the viewer turns splats 180° about X: the box follows the model's world matrix),
 * and the matrix that projects splat centres to the canvas.
 */
export function createCropBoxOutline(stage: ViewerStage) {
  const geometry = new EdgesGeometry(new BoxGeometry(1, 1, 1));
  const material = new LineBasicMaterial({ color: 0xf59e0b, depthTest: false, transparent: true });
  const outline = new LineSegments(geometry, material);
  outline.matrixAutoUpdate = false;
  outline.renderOrder = 10;
  outline.visible = false;
  stage.scene.add(outline);
  return {
    show(box: CropBox | null) {
      const model = stage.model()?.object;
      if (!box || !model) {
        outline.visible = false;
      } else {
        model.updateMatrixWorld();
        const size = new Vector3(...box.max).sub(new Vector3(...box.min)).max(new Vector3(1e-6, 1e-6, 1e-6));
        const centre = new Vector3(...box.min).add(new Vector3(...box.max)).multiplyScalar(0.5);
        outline.matrix.copy(model.matrixWorld).multiply(new Matrix4().makeTranslation(centre.x, centre.y, centre.z)).multiply(new Matrix4().makeScale(size.x, size.y, size.z));
        outline.matrixWorldNeedsUpdate = true;
        outline.visible = true;
      }
      stage.requestRender();
    },
    dispose() {
      stage.scene.remove(outline);
      geometry.dispose();
      material.dispose();
    },
  };
}

/** Projection × view × the model's world matrix: splat centres (file coordinates) to clip space; null before a model is shown. */
export function centresToClip(stage: ViewerStage): Float32Array | null {
  const model = stage.model()?.object;
  if (!model) return null;
  stage.camera.updateMatrixWorld();
  model.updateMatrixWorld();
  const matrix = new Matrix4().multiplyMatrices(stage.camera.projectionMatrix, stage.camera.matrixWorldInverse).multiply(model.matrixWorld);
  return Float32Array.from(matrix.elements);
}
