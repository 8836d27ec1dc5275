/**
 * Add-ons on a live viewer (issue 6): surface picking, 3D-anchored hotspots, the measuring tool and
 * animated camera flights. Import lazily, like the viewer itself: they pull in three.js.
 */
export { flyTo } from "./camera-flight";
export { createHotspots, type HotspotAnnotation, type Hotspots } from "./hotspots";
export { createMeasureTool, type MeasureTool } from "./measure";
export { onSurfaceClick, pickCenter, pickSurface, type SurfaceHit } from "./picking";
export { onClick, pickPart } from "./picking";
export { createSceneGizmo, getPartTransform, type SceneGizmo, type SceneGizmoMode, type SceneGizmoOptions, type SceneGizmoSpace } from "./scene-gizmo";
