import { Group } from "three";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createArController } from "./ar-controller";
import { EMPTY_OR_CORRUPTED, LoadCancelledError } from "./errors";
import type { LoadedModel } from "./loaded-model";
import type { ViewerContext } from "./viewer-context";

// The glTF decoder and the AR code are faked: these tests are about what the viewer hands them.
const fakes = vi.hoisted(() => ({
  loadGltf: vi.fn(),
  createGltfLoader: vi.fn(),
  detectArSupport: vi.fn(),
  runWebXrAr: vi.fn(),
  exportUsdz: vi.fn(),
  openQuickLook: vi.fn(),
  openInTopWindow: vi.fn(),
}));
vi.mock("./load-gltf", () => ({ loadGltf: fakes.loadGltf, createGltfLoader: fakes.createGltfLoader }));
vi.mock("./ar", async (importOriginal) => ({
  sceneViewerIntent: (await importOriginal<typeof import("./ar")>()).sceneViewerIntent,
  detectArSupport: fakes.detectArSupport,
  runWebXrAr: fakes.runWebXrAr,
  exportUsdz: fakes.exportUsdz,
  openQuickLook: fakes.openQuickLook,
  openInTopWindow: fakes.openInTopWindow,
}));

function fakeModel(kind: LoadedModel["kind"]): LoadedModel & { dispose: ReturnType<typeof vi.fn> } {
  return { kind, object: new Group(), bounds: { min: [0, 0, 0], max: [1, 1, 1] }, dispose: vi.fn() };
}

/** The 12-byte header of a GLB: enough for format detection. */
function glbBytes(): ArrayBuffer {
  const bytes = new Uint8Array(12);
  bytes.set(new TextEncoder().encode("glTF"));
  new DataView(bytes.buffer).setUint32(4, 2, true);
  return bytes.buffer;
}

function rig(shown: LoadedModel | null) {
  const release = vi.fn();
  const ctx = {
    settings: { decoderPath: "/viewer-libs/" },
    disposed: false,
    renderer: {},
    loop: { hold: vi.fn(() => release) },
    gltfLoader: null,
    model: shown,
    resize: vi.fn(),
  } as unknown as ViewerContext;
  return { ctx, ar: createArController(ctx), release };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  vi.clearAllMocks();
  fakes.createGltfLoader.mockImplementation(() => ({ loader: {}, dispose: vi.fn() }));
  fakes.detectArSupport.mockResolvedValue({ webxr: true, quickLook: false, sceneViewer: false });
});

describe("createArController", () => {
  it("places the mesh on show itself", async () => {
    const mesh = fakeModel("mesh");
    const { ar } = rig(mesh);
    const source = vi.fn(async () => glbBytes());
    ar.setArModel(source);
    expect(await ar.arObject()).toBe(mesh.object);
    expect(source).not.toHaveBeenCalled();
  });

  it("says whether the model on show could be placed in AR (what a desktop's \"View in AR\" QR code offers)", () => {
    expect(rig(fakeModel("mesh")).ar.canPlaceInAr()).toBe(true);
    const splat = rig(fakeModel("splat")).ar;
    expect(splat.canPlaceInAr()).toBe(false);
    splat.setArModel(async () => glbBytes());
    expect(splat.canPlaceInAr()).toBe(true);
    splat.setArModel(null);
    expect(splat.canPlaceInAr()).toBe(false);
  });

  it("places nothing for a splat without an AR model, and offers no AR route", async () => {
    const { ar } = rig(fakeModel("splat"));
    expect(await ar.arObject()).toBeNull();
    expect(await ar.arSupport()).toEqual({ webxr: false, quickLook: false, sceneViewer: false });
    expect(fakes.detectArSupport).not.toHaveBeenCalled();
    await expect(ar.viewInAr()).rejects.toThrow("Only 3D meshes (glTF) can be viewed in your space");
  });

  it("downloads and decodes the AR model of a splat once, and asks the browser for its AR routes", async () => {
    const { ctx, ar } = rig(fakeModel("splat"));
    const decoded = fakeModel("mesh");
    fakes.loadGltf.mockResolvedValue(decoded);
    const source = vi.fn(async () => glbBytes());
    ar.setArModel(source);
    expect(await ar.arSupport()).toEqual({ webxr: true, quickLook: false, sceneViewer: false });
    expect(await ar.arObject()).toBe(decoded.object);
    expect(await ar.arObject()).toBe(decoded.object);
    expect(source).toHaveBeenCalledTimes(1);
    expect(fakes.loadGltf).toHaveBeenCalledTimes(1);
    expect(fakes.loadGltf.mock.calls[0][2]).toBe("glb");
    expect(fakes.createGltfLoader).toHaveBeenCalledWith(ctx.renderer, "/viewer-libs/");
  });

  it("tries a failed AR model download again on the next call", async () => {
    const { ar } = rig(fakeModel("splat"));
    const decoded = fakeModel("mesh");
    fakes.loadGltf.mockResolvedValue(decoded);
    const source = vi.fn<() => Promise<ArrayBuffer>>().mockRejectedValueOnce(new Error("offline")).mockResolvedValue(glbBytes());
    ar.setArModel(source);
    await expect(ar.arObject()).rejects.toThrow("offline");
    expect(await ar.arObject()).toBe(decoded.object);
    expect(source).toHaveBeenCalledTimes(2);
  });

  it("refuses an AR model that is empty or not glTF", async () => {
    const { ar } = rig(fakeModel("splat"));
    ar.setArModel(async () => new ArrayBuffer(0));
    await expect(ar.arObject()).rejects.toThrow(EMPTY_OR_CORRUPTED);
    ar.setArModel(async () => new TextEncoder().encode("ply\nformat binary_little_endian 1.0\nend_header\n").buffer as ArrayBuffer);
    await expect(ar.arObject()).rejects.toThrow("The model for viewing in your space is not a glTF file");
    expect(fakes.loadGltf).not.toHaveBeenCalled();
  });

  it("frees the decoded AR model when it is replaced and on dispose", async () => {
    const { ar } = rig(fakeModel("splat"));
    const first = fakeModel("mesh");
    const second = fakeModel("mesh");
    fakes.loadGltf.mockResolvedValueOnce(first).mockResolvedValueOnce(second);
    ar.setArModel(async () => glbBytes());
    await ar.arObject();
    ar.setArModel(async () => glbBytes());
    await flush();
    expect(first.dispose).toHaveBeenCalledTimes(1);
    await ar.arObject();
    ar.dispose();
    await flush();
    expect(second.dispose).toHaveBeenCalledTimes(1);
    expect(await ar.arSupport()).toEqual({ webxr: false, quickLook: false, sceneViewer: false }); // no AR model any more
  });

  it("cancels an AR model load once the viewer is disposed", async () => {
    const { ctx, ar } = rig(fakeModel("splat"));
    ar.setArModel(async () => glbBytes());
    ctx.disposed = true;
    await expect(ar.arObject()).rejects.toBeInstanceOf(LoadCancelledError);
  });

  it("holds the render loop during a WebXR session and re-reads the size after it", async () => {
    const mesh = fakeModel("mesh");
    const { ctx, ar, release } = rig(mesh);
    fakes.runWebXrAr.mockImplementation(async () => {
      expect(ctx.loop?.hold).toHaveBeenCalledTimes(1);
      expect(release).not.toHaveBeenCalled();
    });
    await ar.viewInAr();
    expect(fakes.runWebXrAr).toHaveBeenCalledWith({ renderer: ctx.renderer, object: mesh.object });
    expect(release).toHaveBeenCalledTimes(1);
    expect(ctx.resize).toHaveBeenCalledTimes(1);
    expect(fakes.openQuickLook).not.toHaveBeenCalled();
  });

  it("opens AR Quick Look where WebXR is missing, and refuses where neither is there", async () => {
    const mesh = fakeModel("mesh");
    const { ar } = rig(mesh);
    const usdz = new Blob(["usdz"]);
    fakes.exportUsdz.mockResolvedValue(usdz);
    fakes.detectArSupport.mockResolvedValue({ webxr: false, quickLook: true, sceneViewer: false });
    await ar.viewInAr();
    expect(fakes.exportUsdz).toHaveBeenCalledWith(mesh.object);
    expect(fakes.openQuickLook).toHaveBeenCalledWith(usdz);
    fakes.detectArSupport.mockResolvedValue({ webxr: false, quickLook: false, sceneViewer: false });
    await expect(ar.viewInAr()).rejects.toThrow("Viewing in your space needs an ARCore phone or Safari on an iPhone or iPad");
  });

  it("opens the server's USDZ in AR Quick Look and its GLB in Scene Viewer, decoding and converting nothing", async () => {
    vi.stubGlobal("window", { location: { href: "https://scanroom.example/item/1" } });
    const splat = fakeModel("splat");
    const { ar } = rig(splat);
    const files = { usdz: "https://scanroom.example/v1/item/1/ar/usdz?v=ab", glb: "https://scanroom.example/v1/item/1/ar/glb?v=ab", title: "Oak chair" };
    fakes.detectArSupport.mockResolvedValue({ webxr: false, quickLook: false, sceneViewer: true });
    expect(ar.canPlaceInAr()).toBe(false);
    ar.setArFiles(files);
    expect(ar.canPlaceInAr()).toBe(true); // a splat with the server's files of its mesh
    expect(await ar.arSupport()).toEqual({ webxr: false, quickLook: false, sceneViewer: true });
    await ar.viewInAr();
    const intent = fakes.openInTopWindow.mock.calls[0][0] as string;
    expect(intent).toMatch(/^intent:\/\/arvr\.google\.com\/scene-viewer\/1\.0\?/);
    const query = new URLSearchParams(intent.slice(intent.indexOf("?") + 1, intent.indexOf("#")));
    expect(Object.fromEntries(query)).toEqual({ file: files.glb, mode: "ar_preferred", resizable: "false", title: "Oak chair" });
    expect(intent).toContain(";package=com.google.ar.core;");
    expect(intent).toContain(`;S.browser_fallback_url=${encodeURIComponent("https://scanroom.example/item/1")};end;`);

    fakes.detectArSupport.mockResolvedValue({ webxr: false, quickLook: true, sceneViewer: false });
    await ar.viewInAr();
    expect(fakes.openQuickLook).toHaveBeenCalledWith(files.usdz);
    expect(fakes.exportUsdz).not.toHaveBeenCalled();
    expect(fakes.loadGltf).not.toHaveBeenCalled();

    // Without the GLB (a private model: Scene Viewer fetches without the site's cookie) Android has no route.
    ar.setArFiles({ usdz: files.usdz, glb: null });
    fakes.detectArSupport.mockResolvedValue({ webxr: false, quickLook: false, sceneViewer: true });
    expect(await ar.arSupport()).toEqual({ webxr: false, quickLook: false, sceneViewer: false });
    await expect(ar.viewInAr()).rejects.toThrow("Viewing in your space needs an ARCore phone or Safari on an iPhone or iPad");
    vi.unstubAllGlobals();
  });
});
