import { unzipSync } from "three/addons/libs/fflate.module.js";
import { BoxGeometry, Box3, Group, Mesh, MeshStandardMaterial } from "three";
import { afterEach, describe, expect, it, vi } from "vitest";
import { detectArSupport, exportUsdz, standOnGround } from "./ar";

function floatingBox() {
  const group = new Group();
  const box = new Mesh(new BoxGeometry(0.4, 0.2, 0.3), new MeshStandardMaterial({ color: 0x3366ff }));
  box.position.set(2, 5, -1); // somewhere in the scan's own frame
  group.add(box);
  return group;
}

describe("AR placement", () => {
  it("stands a model on the ground, centred on its footprint, at its real size", () => {
    const model = floatingBox();
    standOnGround(model);
    const bounds = new Box3().setFromObject(model);
    expect(bounds.min.y).toBeCloseTo(0, 6);
    expect((bounds.min.x + bounds.max.x) / 2).toBeCloseTo(0, 6);
    expect((bounds.min.z + bounds.max.z) / 2).toBeCloseTo(0, 6);
    expect(bounds.max.y - bounds.min.y).toBeCloseTo(0.2, 6);
  });

  it("exports a USDZ for AR Quick Look that anchors the model on a horizontal plane", async () => {
    const model = floatingBox();
    const usdz = await exportUsdz(model);
    expect(usdz.type).toBe("model/vnd.usdz+zip");
    const files = unzipSync(new Uint8Array(await usdz.arrayBuffer()));
    const usda = new TextDecoder().decode(files["model.usda"]);
    expect(usda).toContain('token preliminary:anchoring:type = "plane"');
    expect(usda).toContain('token preliminary:planeAnchoring:alignment = "horizontal"');
    const geometry = Object.keys(files).find((name) => name.startsWith("geometries/"));
    expect(geometry).toBeDefined();
    expect(new TextDecoder().decode(files[geometry!])).toMatch(/point3f\[\] points = \[/);
    // The viewer's own object is not moved by the export.
    expect(model.children[0].position.toArray()).toEqual([2, 5, -1]);
  });

  it("offers no AR route outside a browser", async () => {
    expect(await detectArSupport()).toEqual({ webxr: false, quickLook: false, sceneViewer: false });
  });
});

describe("AR support in a browser", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  /** A browser whose WebXR supports immersive-ar, with the given Permissions Policy APIs and Quick Look support. */
  function browser(policy: { permissionsPolicy?: string[]; featurePolicy?: string[] }, { quickLook = false } = {}) {
    const isSessionSupported = vi.fn(async (mode: string) => mode === "immersive-ar");
    vi.stubGlobal("navigator", { xr: { isSessionSupported, requestSession: vi.fn() } });
    const allowing = (features: string[] | undefined) => features && { allowsFeature: (feature: string) => features.includes(feature) };
    vi.stubGlobal("document", {
      permissionsPolicy: allowing(policy.permissionsPolicy),
      featurePolicy: allowing(policy.featurePolicy),
      createElement: () => ({ relList: { supports: (token: string) => quickLook && token === "ar" } }),
    });
    return { isSessionSupported };
  }

  it("asks WebXR for immersive-ar where the page may use spatial tracking", async () => {
    const { isSessionSupported } = browser({ permissionsPolicy: ["xr-spatial-tracking", "fullscreen"] });
    expect(await detectArSupport()).toEqual({ webxr: true, quickLook: false, sceneViewer: false });
    expect(isSessionSupported).toHaveBeenCalledWith("immersive-ar");
  });

  it("in a frame whose Permissions Policy withholds spatial tracking, has no WebXR and never asks for it", async () => {
    const { isSessionSupported } = browser({ permissionsPolicy: ["fullscreen"] }, { quickLook: true });
    expect(await detectArSupport()).toEqual({ webxr: false, quickLook: true, sceneViewer: false });
    expect(isSessionSupported).not.toHaveBeenCalled();
  });

  it("offers Scene Viewer on Android (any browser there: an intent URL), never on an iPhone", async () => {
    vi.stubGlobal("navigator", { userAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36" });
    vi.stubGlobal("document", { createElement: () => ({ relList: { supports: () => false } }) });
    expect(await detectArSupport()).toEqual({ webxr: false, quickLook: false, sceneViewer: true });
    vi.stubGlobal("navigator", { userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1" });
    vi.stubGlobal("document", { createElement: () => ({ relList: { supports: (token: string) => token === "ar" } }) });
    expect(await detectArSupport()).toEqual({ webxr: false, quickLook: true, sceneViewer: false });
  });

  it("reads the older Feature Policy API where the Permissions Policy one is missing", async () => {
    const withheld = browser({ featurePolicy: [] });
    expect((await detectArSupport()).webxr).toBe(false);
    expect(withheld.isSessionSupported).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
    const allowed = browser({ featurePolicy: ["xr-spatial-tracking"] });
    expect((await detectArSupport()).webxr).toBe(true);
    expect(allowed.isSessionSupported).toHaveBeenCalledWith("immersive-ar");
  });

  it("asks WebXR as before in a browser with neither policy API", async () => {
    const { isSessionSupported } = browser({});
    expect((await detectArSupport()).webxr).toBe(true);
    expect(isSessionSupported).toHaveBeenCalledWith("immersive-ar");
  });
});
