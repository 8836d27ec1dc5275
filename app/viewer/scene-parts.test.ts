import { Group } from "three";
import { describe, expect, it, vi } from "vitest";
import type { ModelDownload } from "./download";
import { Emitter } from "./emitter";
import { LoadCancelledError, toError } from "./errors";
import type { LoadedModel } from "./loaded-model";
import type { BegunLoad, DecodedModel, ModelLoading } from "./model-loading";
import { createSceneModel, isSceneModel } from "./scene-model";
import { createSceneParts, PART_DOWNLOADS_AT_ONCE } from "./scene-parts";
import type { ScenePartRequest, ViewerEvents } from "./types";
import type { ViewerContext } from "./viewer-context";

const transform = { position: [0, 0, 0], quaternion: [0, 0, 0, 1], scale: [1, 1, 1] } as ScenePartRequest["transform"];

function fakeModel(): LoadedModel & { dispose: ReturnType<typeof vi.fn> } {
  return { kind: "mesh", object: new Group(), bounds: { min: [0, 0, 0], max: [1, 1, 1] }, dispose: vi.fn() };
}

/** A download that finishes when the test says so. */
function fakeDownload() {
  let finish!: (bytes: ArrayBuffer) => void;
  const done = new Promise<ArrayBuffer>((resolve) => (finish = resolve));
  const download: ModelDownload = { done, loaded: 0, total: null, received: () => null, onData: () => () => undefined };
  return { download, finish: () => finish(new ArrayBuffer(8)) };
}

/** The part of model loading scenes use, with load supersession as model-loading.ts does it and a decode the test controls. */
function fakeLoader(ctx: ViewerContext) {
  let generation = 0;
  let abort: AbortController | null = null;
  const decodeModel = vi.fn(async (): Promise<DecodedModel> => ({ model: fakeModel(), format: "glb" }));
  const loader: ModelLoading = {
    load: vi.fn(),
    beginLoad(): BegunLoad {
      abort?.abort();
      abort = new AbortController();
      const token = ++generation;
      const isCurrent = () => !ctx.disposed && token === generation;
      return {
        isCurrent,
        cancellation: () => new LoadCancelledError("A newer model replaced this one"),
        fail: (error, fallback) => (error instanceof LoadCancelledError ? error : toError(error, fallback)),
        signal: abort.signal,
      };
    },
    get generation() {
      return generation;
    },
    decodeModel,
    presentModel: (next) => {
      ctx.model = next;
    },
    frameModel: vi.fn(),
    partIds: () => (isSceneModel(ctx.model) ? [...ctx.model.parts.keys()] : []),
    cancel: () => abort?.abort(),
  };
  return { loader, decodeModel };
}

function rig({ scene = true } = {}) {
  const events = new Emitter<ViewerEvents>();
  const announced: string[][] = [];
  events.on("parts", (ids) => announced.push(ids));
  const ctx = {
    events,
    disposed: false,
    renderer: null,
    model: scene ? createSceneModel() : null,
    modelFormat: null,
    readyAt: null,
    ensureRenderer: vi.fn(() => ({})),
    ensureSpark: vi.fn(async () => undefined),
    applyLighting: vi.fn(),
    waitForFirstDraw: vi.fn(async () => undefined),
    requestRender: vi.fn(),
  } as unknown as ViewerContext;
  const { loader, decodeModel } = fakeLoader(ctx);
  return { ctx, loader, decodeModel, parts: createSceneParts(ctx, loader), announced };
}

const part = (id: string, download: ScenePartRequest["download"]): ScenePartRequest => ({ id, fileName: `${id}.glb`, download, transform });
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const shownParts = (ctx: ViewerContext) => (isSceneModel(ctx.model) ? [...ctx.model.parts.keys()] : null);

describe("createSceneParts", () => {
  it("adds a part to the scene on show, frames the camera on the first, and announces the parts", async () => {
    const { ctx, loader, parts, announced } = rig();
    const chair = fakeDownload();
    const adding = parts.addPart(part("chair", chair.download));
    chair.finish();
    await adding;
    expect(shownParts(ctx)).toEqual(["chair"]);
    expect(ctx.modelFormat).toBe("glb");
    expect(loader.frameModel).toHaveBeenCalledTimes(1);
    expect(announced).toEqual([["chair"]]);
    await expect(parts.addPart(part("chair", fakeDownload().download))).rejects.toThrow('The scene already has a part "chair"');
  });

  it("cancels a part still downloading when it is removed: nothing is decoded or shown", async () => {
    const { ctx, parts, decodeModel, announced } = rig();
    const chair = fakeDownload();
    const adding = parts.addPart(part("chair", chair.download));
    expect(parts.removePart("chair")).toBe(true);
    chair.finish();
    await expect(adding).rejects.toThrow(new LoadCancelledError("The part was removed"));
    expect(decodeModel).not.toHaveBeenCalled();
    expect(shownParts(ctx)).toEqual([]);
    expect(announced).toEqual([]);
  });

  it("frees what a removed part had decoded meanwhile", async () => {
    const { ctx, parts, decodeModel } = rig();
    const decoded = fakeModel();
    let finishDecode!: (result: DecodedModel) => void;
    decodeModel.mockImplementationOnce(() => new Promise<DecodedModel>((resolve) => (finishDecode = resolve)));
    const chair = fakeDownload();
    const adding = parts.addPart(part("chair", chair.download));
    chair.finish();
    await vi.waitFor(() => expect(decodeModel).toHaveBeenCalled());
    parts.removePart("chair");
    finishDecode({ model: decoded, format: "glb" });
    await expect(adding).rejects.toBeInstanceOf(LoadCancelledError);
    expect(decoded.dispose).toHaveBeenCalledTimes(1);
    expect(shownParts(ctx)).toEqual([]);
  });

  it(`starts at most ${PART_DOWNLOADS_AT_ONCE} part downloads at once; a part removed while waiting never starts`, async () => {
    const { ctx, parts } = rig();
    const downloads = ["a", "b", "c", "d", "e"].map((id) => ({ id, ...fakeDownload(), start: vi.fn() }));
    const adding = downloads.map(({ id, download, start }) =>
      parts.addPart(
        part(id, () => {
          start();
          return download;
        }),
      ),
    );
    const outcomes = Promise.allSettled(adding);
    const started = () => downloads.filter(({ start }) => start.mock.calls.length > 0).map(({ id }) => id);
    expect(started()).toEqual(["a", "b", "c"]);
    expect(parts.removePart("d")).toBe(true);
    downloads[0]!.finish();
    await adding[0];
    await flush();
    expect(started()).toEqual(["a", "b", "c", "e"]);
    for (const { finish } of downloads) finish();
    const [, , , removed] = await outcomes;
    expect(removed).toEqual({ status: "rejected", reason: new LoadCancelledError("The part was removed") });
    expect(shownParts(ctx)).toEqual(["a", "b", "c", "e"]);
  });

  it("takes a part on show out of the scene, frees it and announces the parts left", async () => {
    const { ctx, parts, announced } = rig();
    const chair = fakeDownload();
    const table = fakeDownload();
    const adding = [parts.addPart(part("chair", chair.download)), parts.addPart(part("table", table.download))];
    chair.finish();
    table.finish();
    await Promise.all(adding);
    const chairModel = isSceneModel(ctx.model) ? ctx.model.parts.get("chair")?.model : undefined;
    expect(parts.removePart("chair")).toBe(true);
    expect(chairModel?.dispose).toHaveBeenCalledTimes(1);
    expect(shownParts(ctx)).toEqual(["table"]);
    expect(announced.at(-1)).toEqual(["table"]);
    expect(ctx.requestRender).toHaveBeenCalled();
    expect(parts.removePart("chair")).toBe(false);
  });

  it("starts a scene with the part when none is on show, and reports it ready", async () => {
    const { ctx, parts } = rig({ scene: false });
    const ready: ViewerEvents["ready"][] = [];
    ctx.events.on("ready", (event) => ready.push(event));
    const chair = fakeDownload();
    const adding = parts.addPart(part("chair", chair.download));
    chair.finish();
    await adding;
    expect(shownParts(ctx)).toEqual(["chair"]);
    expect(ctx.ensureRenderer).toHaveBeenCalledWith(true); // a mesh file name: MSAA
    expect(ready).toEqual([expect.objectContaining({ format: "glb", parts: 1 })]);
    expect(ctx.readyAt).not.toBeNull();
  });

  it("stops a scene load superseded by a newer load: download factories not yet called never are", async () => {
    const { ctx, loader, parts, decodeModel } = rig({ scene: false });
    const downloads = ["a", "b", "c", "d"].map((id) => ({ id, ...fakeDownload(), start: vi.fn() }));
    const loading = parts.loadScene({
      parts: downloads.map(({ id, download, start }) =>
        part(id, () => {
          start();
          return download;
        }),
      ),
    });
    loader.beginLoad(); // a newer load
    await expect(loading).rejects.toThrow(new LoadCancelledError("A newer model replaced this one"));
    for (const { finish } of downloads) finish();
    await flush();
    expect(downloads[3]!.start).not.toHaveBeenCalled();
    expect(decodeModel).not.toHaveBeenCalled();
    expect(ctx.model).toBeNull();
  });

  it("rejects a scene without parts", async () => {
    const { parts } = rig({ scene: false });
    await expect(parts.loadScene({ parts: [] })).rejects.toThrow("This scene has no models yet");
  });
});
