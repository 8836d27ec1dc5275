/**
 * "View in your space" for glTF models (issue 6, issue 35 item 1): WebXR immersive-ar with hit testing where
 * the browser offers it (Chrome on Android), else the phone's own AR viewer with files the server made at the
 * model's real-world scale (docs/decisions/054): AR Quick Look on iOS (USDZ), Scene Viewer on Android (GLB,
 * through an intent). Where there are no server files (a Builder scene's part), Quick Look gets a USDZ made in
 * the browser by three's USDZExporter. Splats have no AR route of their own (Quick Look and Scene Viewer show
 * meshes only): a scan is placed from its mesh.
 */
import {
  Box3,
  HemisphereLight,
  Mesh,
  MeshBasicMaterial,
  Object3D,
  RingGeometry,
  Scene,
  Vector3,
  type WebGLRenderer,
} from "three";

export interface ArSupport {
  /** WebXR immersive-ar (Android Chrome with ARCore). */
  webxr: boolean;
  /** iOS / iPadOS AR Quick Look (`<a rel="ar">`). */
  quickLook: boolean;
  /** Android's Scene Viewer (Google Play Services for AR), opened by an intent URL: any Android browser. */
  sceneViewer: boolean;
}

/** The server's AR files of the model on show (absolute URLs): USDZ for Quick Look, GLB for Scene Viewer (null: not offered). */
export interface ArFiles {
  usdz: string;
  glb: string | null;
  /** The model's name, Scene Viewer's title. */
  title?: string;
}

type XrSystem = { isSessionSupported(mode: string): Promise<boolean>; requestSession(mode: string, init?: unknown): Promise<XrSession> };
type XrSession = EventTarget & {
  end(): Promise<void>;
  requestReferenceSpace(type: string): Promise<unknown>;
  requestHitTestSource?(options: { space: unknown }): Promise<{ cancel(): void } | undefined>;
};
type XrFrame = { getHitTestResults(source: unknown): Array<{ getPose(space: unknown): { transform: { matrix: Float32Array } } | null }> };

type FeaturePolicy = { allowsFeature(feature: string): boolean };

/**
 * Whether this document's Permissions Policy lets it use WebXR's spatial tracking. An embed on another
 * site is a frame that may not have it: asking WebXR there logs console errors, and AR could not start
 * anyway. Browsers without either policy API are taken to allow it (their WebXR answers for itself).
 */
function xrAllowedHere(): boolean {
  const doc = document as Document & { permissionsPolicy?: FeaturePolicy; featurePolicy?: FeaturePolicy };
  const policy = doc.permissionsPolicy ?? doc.featurePolicy;
  return policy?.allowsFeature("xr-spatial-tracking") ?? true;
}

export async function detectArSupport(): Promise<ArSupport> {
  if (typeof navigator === "undefined" || typeof document === "undefined") return { webxr: false, quickLook: false, sceneViewer: false };
  const xr = (navigator as Navigator & { xr?: XrSystem }).xr;
  const webxr = xr && xrAllowedHere() ? await xr.isSessionSupported("immersive-ar").catch(() => false) : false;
  const quickLook = document.createElement("a").relList?.supports?.("ar") ?? false;
  const sceneViewer = !quickLook && /\bAndroid\b/i.test(navigator.userAgent);
  return { webxr, quickLook, sceneViewer };
}

/**
 * The intent URL that opens `glbUrl` in Scene Viewer in AR (falling back to its 3D view on a phone without AR),
 * at the file's own size (not resizable: the file is at real-world scale); without Scene Viewer the browser goes
 * to `fallbackUrl`. https://developers.google.com/ar/develop/scene-viewer
 */
export function sceneViewerIntent({ glbUrl, title, fallbackUrl }: { glbUrl: string; title?: string; fallbackUrl: string }): string {
  const target = new URL(glbUrl);
  const query = new URLSearchParams({ file: target.href, mode: "ar_preferred", resizable: "false" });
  if (title) query.set("title", title);
  return (
    `intent://arvr.google.com/scene-viewer/1.0?${query.toString()}` +
    `#Intent;scheme=https;package=com.google.ar.core;action=android.intent.action.VIEW;S.browser_fallback_url=${encodeURIComponent(fallbackUrl)};end;`
  );
}

/** Follows `href` from a link clicked in the whole window (an embed's frame cannot open an app itself). */
export function openInTopWindow(href: string): void {
  const link = document.createElement("a");
  link.href = href;
  link.target = "_top";
  link.rel = "noopener";
  link.click();
}

/** A USDZ of `object` for AR Quick Look (the model stands on a horizontal plane). */
export async function exportUsdz(object: Object3D): Promise<Blob> {
  const { USDZExporter } = await import("three/addons/exporters/USDZExporter.js");
  const root = new Scene();
  const copy = object.clone(); // shares geometry and materials; the viewer's scene is untouched
  root.add(copy);
  standOnGround(copy);
  const bytes = await new USDZExporter().parseAsync(root, {
    quickLookCompatible: true,
    ar: { anchoring: { type: "plane" }, planeAnchoring: { alignment: "horizontal" } },
  });
  return new Blob([bytes as BlobPart], { type: "model/vnd.usdz+zip" });
}

/** Moves `object` so that its footprint is centred on the origin and its lowest point at y = 0. */
export function standOnGround(object: Object3D): void {
  object.updateMatrixWorld(true);
  const box = new Box3().setFromObject(object, true);
  if (box.isEmpty()) return;
  const center = box.getCenter(new Vector3());
  object.position.x -= center.x;
  object.position.z -= center.z;
  object.position.y -= box.min.y;
  object.updateMatrixWorld(true);
}

/**
 * Opens AR Quick Look on iOS with a USDZ at `usdz` (the server's file) or in a Blob made here (the link must hold
 * an image for Safari to take it). Content scaling is off: the model stays at its real-world size.
 */
export function openQuickLook(usdz: Blob | string, name = "model"): void {
  const url = typeof usdz === "string" ? usdz : URL.createObjectURL(usdz);
  const link = document.createElement("a");
  link.rel = "ar";
  link.href = `${url}#allowsContentScaling=0`;
  if (typeof usdz !== "string") link.download = `${name}.usdz`;
  link.appendChild(document.createElement("img"));
  link.click();
  if (typeof usdz !== "string") setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Runs a WebXR immersive-ar session on `renderer`: a ring follows the surface under the screen's
 * centre; a tap places the model there. Resolves when the session has ended.
 */
export async function runWebXrAr({
  renderer,
  object,
  overlay,
}: {
  renderer: WebGLRenderer;
  object: Object3D;
  /** Element shown over the camera image (DOM overlay), e.g. with an exit button. */
  overlay?: HTMLElement;
}): Promise<void> {
  const xr = (navigator as Navigator & { xr?: XrSystem }).xr;
  if (!xr) throw new Error("AR is not available in this browser");
  const session = await xr.requestSession("immersive-ar", {
    requiredFeatures: ["hit-test"],
    optionalFeatures: overlay ? ["dom-overlay"] : [],
    ...(overlay ? { domOverlay: { root: overlay } } : {}),
  });
  const scene = new Scene();
  scene.add(new HemisphereLight(0xffffff, 0x444444, 2.5));
  const model = object.clone();
  standOnGround(model);
  const anchor = new Object3D();
  anchor.add(model);
  anchor.visible = false;
  scene.add(anchor);
  const reticle = new Mesh(new RingGeometry(0.08, 0.1, 32).rotateX(-Math.PI / 2), new MeshBasicMaterial({ color: 0xffffff }));
  reticle.matrixAutoUpdate = false;
  reticle.visible = false;
  scene.add(reticle);

  const previousClearAlpha = renderer.getClearAlpha();
  renderer.setClearAlpha(0);
  renderer.xr.enabled = true;
  renderer.xr.setReferenceSpaceType("local");
  await renderer.xr.setSession(session as unknown as Parameters<WebGLRenderer["xr"]["setSession"]>[0]);
  const viewerSpace = await session.requestReferenceSpace("viewer");
  const hitSource = await session.requestHitTestSource?.({ space: viewerSpace });

  const onSelect = () => {
    if (!reticle.visible) return;
    anchor.position.setFromMatrixPosition(reticle.matrix);
    anchor.visible = true;
  };
  session.addEventListener("select", onSelect);
  renderer.setAnimationLoop((_time: number, frame?: unknown) => {
    const space = renderer.xr.getReferenceSpace();
    const hits = frame && hitSource ? (frame as XrFrame).getHitTestResults(hitSource) : [];
    const pose = hits[0]?.getPose(space);
    reticle.visible = !!pose;
    if (pose) reticle.matrix.fromArray(pose.transform.matrix);
    renderer.render(scene, renderer.xr.getCamera());
  });

  await new Promise<void>((resolve) => session.addEventListener("end", () => resolve(), { once: true }));
  session.removeEventListener("select", onSelect);
  hitSource?.cancel();
  renderer.setAnimationLoop(null);
  renderer.xr.enabled = false;
  renderer.setClearAlpha(previousClearAlpha);
  reticle.geometry.dispose();
  reticle.material.dispose();
}
