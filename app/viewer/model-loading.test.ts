import { Group, PerspectiveCamera, Scene, Vector3 } from "three";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ModelDownload } from "./download";
import { Emitter } from "./emitter";
import { EMPTY_OR_CORRUPTED, LoadCancelledError } from "./errors";
import { DEFAULT_SPLAT_TIMEOUT_MS } from "./load-splat";
import type { LoadedModel } from "./loaded-model";
import { createModelLoading } from "./model-loading";
import type { ViewerEvents } from "./types";
import type { ViewerContext, ViewerSettings } from "./viewer-context";

// Spark is faked: these tests are about what the viewer does with a decoded splat.
const fakes = vi.hoisted(() => ({ loadSplat: vi.fn(), loadSpark: vi.fn() }));
vi.mock("./load-splat", async (importOriginal) => ({ ...(await importOriginal<typeof import("./load-splat")>()), loadSplat: fakes.loadSplat, loadSpark: fakes.loadSpark }));

function fakeSplat(center = 10): LoadedModel & { dispose: ReturnType<typeof vi.fn> } {
  return { kind: "splat", object: new Group(), bounds: { min: [center - 1, center - 1, center - 1], max: [center + 1, center + 1, center + 1] }, splatCount: 1000, dispose: vi.fn() };
}

const PLY = new TextEncoder().encode("ply\nformat binary_little_endian 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nend_header\n");
const plyBytes = () => new Uint8Array([...PLY, ...new Uint8Array(12)]).buffer;
const expectAt = (point: Vector3, [x, y, z]: [number, number, number]) => expect(point.distanceTo(new Vector3(x, y, z))).toBeCloseTo(0, 6);

function rig(settings: Partial<ViewerSettings> = {}) {
  const events = new Emitter<ViewerEvents>();
  const seen: Array<[keyof ViewerEvents, unknown]> = [];
  for (const name of ["ready", "error", "parts", "preview"] as const) events.on(name, (payload) => seen.push([name, payload]));
  const camera = new PerspectiveCamera(45, 1, 0.01, 1000);
  camera.position.set(0, 0, 3);
  const controls = new OrbitControls(camera); // no DOM element: no listeners
  const renderer = {};
  const ctx = {
    settings: { splatBudget: 1_000_000, splatTimeoutMs: DEFAULT_SPLAT_TIMEOUT_MS, decoderPath: "/viewer-libs/", ...settings },
    events,
    scene: new Scene(),
    camera,
    controls,
    disposed: false,
    renderer: null,
    model: null,
    modelFormat: null,
    swapping: false,
    interactions: 0,
    firstFrameAt: 123,
    readyAt: 456,
    fly: null,
    requestRender: vi.fn(),
    ensureRenderer: vi.fn(() => renderer),
    ensureSpark: vi.fn(async () => undefined),
    applyLighting: vi.fn(),
    waitForFirstDraw: vi.fn(async () => undefined),
  } as unknown as ViewerContext;
  return { ctx, loading: createModelLoading(ctx), seen, renderer };
}

beforeEach(() => {
  vi.clearAllMocks();
  fakes.loadSpark.mockResolvedValue({});
});

describe("createModelLoading", () => {
  it("puts a decoded splat on show, lit and framed, then reports it ready", async () => {
    const { ctx, loading, seen, renderer } = rig();
    const splat = fakeSplat(10);
    fakes.loadSplat.mockResolvedValue(splat);
    await loading.load({ bytes: plyBytes(), fileName: "guitar.ply" });
    expect(ctx.ensureRenderer).toHaveBeenCalledWith(false); // splats: no MSAA
    expect(ctx.ensureSpark).toHaveBeenCalledWith(renderer);
    expect(ctx.applyLighting).toHaveBeenCalledWith("splat", renderer);
    expect(ctx.model).toBe(splat);
    expect(ctx.scene.children).toContain(splat.object);
    expect(ctx.modelFormat).toBe("ply");
    expectAt(ctx.controls.target, [10, 10, 10]);
    expect(ctx.waitForFirstDraw).toHaveBeenCalledWith("splat");
    expect(ctx.readyAt).not.toBeNull();
    expect(seen.map(([name]) => name)).toEqual(["parts", "ready"]);
    expect(seen[1]![1]).toMatchObject({ format: "ply", splatCount: 1000 });
  });

  it("replaces the model on show and frees it", async () => {
    const { ctx, loading } = rig();
    const first = fakeSplat(0);
    const second = fakeSplat(5);
    fakes.loadSplat.mockResolvedValueOnce(first).mockResolvedValueOnce(second);
    await loading.load({ bytes: plyBytes() });
    await loading.load({ bytes: plyBytes() });
    expect(first.dispose).toHaveBeenCalledTimes(1);
    expect(ctx.scene.children).not.toContain(first.object);
    expect(ctx.model).toBe(second);
  });

  it("rejects empty or unrecognised bytes with a readable error, also reported through 'error'", async () => {
    const { ctx, loading, seen } = rig();
    await expect(loading.load({ bytes: new ArrayBuffer(0) })).rejects.toThrow(EMPTY_OR_CORRUPTED);
    await expect(loading.load({ bytes: new TextEncoder().encode("not a model").buffer as ArrayBuffer })).rejects.toThrow(EMPTY_OR_CORRUPTED);
    expect(seen.map(([name]) => name)).toEqual(["error", "error"]);
    expect(ctx.ensureRenderer).not.toHaveBeenCalled();
    expect(ctx.model).toBeNull();
  });

  it("cancels a load superseded by a newer one, without an 'error'", async () => {
    const { ctx, loading, seen } = rig();
    let finish!: (bytes: ArrayBuffer) => void;
    const done = new Promise<ArrayBuffer>((resolve) => (finish = resolve));
    const download: ModelDownload = { done, loaded: 0, total: null, received: () => null, onData: () => () => undefined };
    const older = loading.load({ download });
    const splat = fakeSplat();
    fakes.loadSplat.mockResolvedValue(splat);
    await loading.load({ bytes: plyBytes() });
    finish(plyBytes());
    await expect(older).rejects.toThrow(new LoadCancelledError("A newer model replaced this one"));
    expect(fakes.loadSplat).toHaveBeenCalledTimes(1);
    expect(ctx.model).toBe(splat);
    expect(seen.map(([name]) => name)).not.toContain("error");
  });

  it("refuses to load once the viewer is disposed", async () => {
    const { ctx, loading } = rig();
    ctx.disposed = true;
    await expect(loading.load({ bytes: plyBytes() })).rejects.toThrow("The viewer has been disposed");
  });

  it("keeps the camera where it is when asked to, and otherwise frames it on the model", () => {
    const { ctx, loading } = rig();
    ctx.camera.position.set(7, 8, 9);
    loading.presentModel(fakeSplat(10), "ply", true);
    expectAt(ctx.camera.position, [7, 8, 9]);
    expectAt(ctx.controls.target, [0, 0, 0]);
    loading.presentModel(fakeSplat(10), "ply", false);
    expectAt(ctx.controls.target, [10, 10, 10]);
  });

  it("frames the camera at the item's saved opening view when there is one", () => {
    const { ctx, loading } = rig({ initialCamera: { position: [10, 10, 14], target: [10, 10, 10] } });
    loading.frameModel(fakeSplat(10));
    expectAt(ctx.camera.position, [10, 10, 14]);
    expect(ctx.requestRender).toHaveBeenCalled();
  });

  it("supersedes the load in flight with each new one, and cancel() stops the current one", () => {
    const { ctx, loading } = rig();
    const first = loading.beginLoad();
    expect(ctx.firstFrameAt).toBeNull();
    expect(ctx.readyAt).toBeNull();
    const second = loading.beginLoad();
    expect(first.isCurrent()).toBe(false);
    expect(first.signal.aborted).toBe(true);
    expect(second.isCurrent()).toBe(true);
    expect(loading.generation).toBe(2);
    loading.cancel();
    expect(second.signal.aborted).toBe(true);
  });
});
