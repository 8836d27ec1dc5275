/**
 * Scenes of several models (loadScene), and adding or removing one part of the scene on show (addPart,
 * removePart). Parts download through a few slots at once and are decoded like load() does (model-loading.ts).
 */
import { createConcurrencyLimiter, type ConcurrencyLimiter } from "./concurrency-limit";
import type { ModelDownload } from "./download";
import { EMPTY_OR_CORRUPTED, LoadCancelledError, toError } from "./errors";
import { loadSpark } from "./load-splat";
import type { DecodedModel, ModelLoading } from "./model-loading";
import { createSceneModel, isSceneModel } from "./scene-model";
import { sumProgress, type PartProgress } from "./scene-progress";
import { allPartsFailedError, EMPTY_SCENE, looksLikeMeshFile, validateScenePart } from "./scene-request";
import type { SceneLoadRequest, ScenePartRequest } from "./types";
import type { ViewerContext } from "./viewer-context";

/** Scene parts downloading at once (download factories beyond this wait for a free slot). */
export const PART_DOWNLOADS_AT_ONCE = 3;

export interface SceneParts {
  loadScene(request: SceneLoadRequest): Promise<void>;
  addPart(request: ScenePartRequest): Promise<void>;
  removePart(id: string): boolean;
  /** Cancels the addPart() calls in flight (dispose()). */
  cancel(): void;
}

export function createSceneParts(ctx: ViewerContext, loader: ModelLoading): SceneParts {
  const { events } = ctx;
  /** The loadScene() in flight, which addPart() waits for. */
  let pendingScene: Promise<void> | null = null;
  /** addPart() calls in flight, by part id (removePart() cancels one). */
  const pendingParts = new Map<string, symbol>();
  /** addPart() downloads share these slots. */
  const addPartSlots = createConcurrencyLimiter(PART_DOWNLOADS_AT_ONCE);

  /**
   * The bytes of one scene part. A download factory is only called when one of `slots` is free (and
   * not at all once the load is no longer current); `onProgress` follows the bytes received.
   */
  function receivePart(
    part: ScenePartRequest,
    slots: ConcurrencyLimiter,
    isCurrent: () => boolean,
    cancellation: () => Error,
    onProgress: (progress: PartProgress) => void,
  ): Promise<ArrayBuffer> {
    const follow = (download: ModelDownload): Promise<ArrayBuffer> => {
      const report = () => onProgress({ loaded: download.loaded, total: download.total });
      report();
      const stop = download.onData(report);
      return download.done.finally(() => {
        stop();
        if (isCurrent()) report();
      });
    };
    const { download } = part;
    if (typeof download !== "function") return follow(download);
    return slots.run(() => (isCurrent() ? follow(download()) : Promise.reject(cancellation())));
  }

  /** Downloads and decodes one part; the decoded model is freed when the load stopped being current meanwhile. */
  async function decodePart(
    part: ScenePartRequest,
    slots: ConcurrencyLimiter,
    isCurrent: () => boolean,
    cancellation: () => Error,
    onProgress: (progress: PartProgress) => void,
  ): Promise<DecodedModel> {
    const bytes = await receivePart(part, slots, isCurrent, cancellation, onProgress);
    if (!isCurrent()) throw cancellation();
    const decoded = await loader.decodeModel(bytes, part.fileName);
    if (!isCurrent()) {
      decoded.model.dispose();
      throw cancellation();
    }
    return decoded;
  }

  /** Resolves with `promise`, or rejects with `cancellation()` as soon as `signal` aborts. */
  function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal, cancellation: () => Error): Promise<T> {
    if (signal.aborted) return Promise.reject(cancellation());
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(cancellation());
      signal.addEventListener("abort", onAbort, { once: true });
      promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
    });
  }

  function loadScene(request: SceneLoadRequest): Promise<void> {
    const loading = loadSceneNow(request);
    pendingScene = loading;
    const clear = () => {
      if (pendingScene === loading) pendingScene = null;
    };
    loading.then(clear, clear);
    return loading;
  }

  async function loadSceneNow(request: SceneLoadRequest): Promise<void> {
    if (ctx.disposed) throw new Error("The viewer has been disposed");
    const { isCurrent, cancellation, fail, signal } = loader.beginLoad();
    const started = performance.now();
    const requested: unknown = request?.parts;
    if (!Array.isArray(requested)) throw fail(new Error("A scene needs a list of parts"), EMPTY_SCENE);
    if (requested.length === 0) throw fail(new Error(EMPTY_SCENE), EMPTY_SCENE);

    const partError = (id: string, error: unknown) => {
      if (isCurrent()) events.emit("part-error", { id, error: toError(error, EMPTY_OR_CORRUPTED) });
    };
    const parts: ScenePartRequest[] = [];
    const errors: Error[] = [];
    const ids = new Set<string>();
    requested.forEach((input: unknown, index) => {
      try {
        const part = validateScenePart(input);
        if (ids.has(part.id)) throw new Error(`${part.name ?? part.id}: the scene has two parts with this id`);
        ids.add(part.id);
        parts.push(part);
      } catch (error) {
        const err = toError(error, "Invalid scene part");
        errors.push(err);
        const id = (input as { id?: unknown } | null)?.id;
        partError(typeof id === "string" ? id : `#${index + 1}`, err);
      }
    });

    // Meshes want MSAA, which is fixed when the renderer is made; Spark is fetched meanwhile for splats.
    try {
      if (parts.some((part) => looksLikeMeshFile(part.fileName))) ctx.ensureRenderer(true);
    } catch (error) {
      throw fail(error, "WebGL is not available in this browser");
    }
    if (parts.some((part) => !looksLikeMeshFile(part.fileName))) loadSpark().catch(() => undefined);

    const slots = createConcurrencyLimiter(PART_DOWNLOADS_AT_ONCE);
    const progress: Array<PartProgress | null> = parts.map(() => null);
    const emitProgress = () => {
      if (isCurrent()) events.emit("progress", sumProgress(progress));
    };
    const decoded: Array<DecodedModel | null> = parts.map(() => null);
    const settled = Promise.all(
      parts.map((part, index) =>
        decodePart(part, slots, isCurrent, cancellation, (current) => {
          progress[index] = current;
          emitProgress();
        }).then(
          (result) => {
            decoded[index] = result;
          },
          (error: unknown) => {
            if (error instanceof LoadCancelledError) return;
            // A failed part no longer holds the summed total back.
            const received = progress[index]?.loaded ?? 0;
            progress[index] = { loaded: received, total: received };
            emitProgress();
            const err = toError(error, EMPTY_OR_CORRUPTED);
            errors.push(err);
            partError(part.id, err);
          },
        ),
      ),
    );
    const freeDecoded = () => {
      for (const result of decoded) result?.model.dispose();
    };
    try {
      await unlessAborted(settled, signal, cancellation);
    } catch (error) {
      // Parts still decoding free themselves (decodePart); the ones done are freed here.
      void settled.then(freeDecoded);
      throw fail(error, EMPTY_OR_CORRUPTED);
    }
    if (!isCurrent()) {
      freeDecoded();
      throw cancellation();
    }

    const composite = createSceneModel();
    parts.forEach((part, index) => {
      const result = decoded[index];
      if (result) composite.add({ id: part.id, name: part.name, format: result.format, model: result.model, transform: part.transform });
    });
    const format = composite.format;
    if (!format) {
      composite.dispose();
      throw fail(allPartsFailedError(errors), EMPTY_OR_CORRUPTED);
    }
    try {
      // Spark may have been retired meanwhile (a part removed from the scene still on show).
      if (composite.kind !== "mesh") await ctx.ensureSpark(ctx.ensureRenderer(false));
    } catch (error) {
      composite.dispose();
      throw fail(error, "The splat renderer could not be loaded");
    }
    if (!isCurrent()) {
      composite.dispose();
      throw cancellation();
    }
    try {
      loader.presentModel(composite, format, false);
      await ctx.waitForFirstDraw(composite.kind);
      ctx.readyAt = performance.now();
    } catch (error) {
      throw fail(error, "The scene could not be displayed");
    }
    if (!isCurrent()) throw cancellation();
    const splatCount = composite.splatCount;
    events.emit("ready", {
      format,
      loadMs: Math.round(performance.now() - started),
      parts: composite.parts.size,
      ...(splatCount !== undefined ? { splatCount } : {}),
    });
  }

  async function addPart(request: ScenePartRequest): Promise<void> {
    if (ctx.disposed) throw new Error("The viewer has been disposed");
    const generation = loader.generation;
    // A scene still loading gets the part once it is on show.
    if (pendingScene) await pendingScene.catch(() => undefined);
    if (ctx.disposed || loader.generation !== generation) {
      throw new LoadCancelledError(ctx.disposed ? "The viewer was disposed during loading" : "A newer model replaced this one");
    }
    const shown = ctx.model;
    if (!isSceneModel(shown)) return loadScene({ parts: [request] });

    const part = validateScenePart(request);
    if (shown.parts.has(part.id) || pendingParts.has(part.id)) throw new Error(`The scene already has a part "${part.id}"`);
    const ticket = Symbol(part.id);
    pendingParts.set(part.id, ticket);
    const isCurrent = () => !ctx.disposed && loader.generation === generation && ctx.model === shown && pendingParts.get(part.id) === ticket;
    const cancellation = () =>
      new LoadCancelledError(ctx.disposed ? "The viewer was disposed during loading" : pendingParts.get(part.id) === ticket ? "A newer model replaced this scene" : "The part was removed");
    try {
      const { model: added, format } = await decodePart(part, addPartSlots, isCurrent, cancellation, () => undefined);
      try {
        // Spark may have been retired meanwhile (the scene's last splat removed).
        if (added.kind === "splat") await ctx.ensureSpark(ctx.ensureRenderer(false));
      } catch (error) {
        added.dispose();
        throw error;
      }
      if (!isCurrent()) {
        added.dispose();
        throw cancellation();
      }
      const wasEmpty = shown.parts.size === 0;
      shown.add({ id: part.id, name: part.name, format, model: added, transform: part.transform });
      if (ctx.renderer) ctx.applyLighting(shown.kind, ctx.renderer);
      if (wasEmpty) {
        ctx.modelFormat = format;
        loader.frameModel(shown); // the camera stays where the user put it, unless there was nothing to look at
      }
      events.emit("parts", loader.partIds());
      await ctx.waitForFirstDraw(added.kind);
    } finally {
      if (pendingParts.get(part.id) === ticket) pendingParts.delete(part.id);
    }
  }

  function removePart(id: string): boolean {
    if (pendingParts.delete(id)) return true; // its addPart() rejects and frees what it decoded
    const shown = ctx.model;
    if (ctx.disposed || !isSceneModel(shown) || !shown.remove(id)) return false;
    if (ctx.renderer) ctx.applyLighting(shown.kind, ctx.renderer);
    ctx.modelFormat = shown.format;
    ctx.requestRender();
    events.emit("parts", loader.partIds());
    return true;
  }

  return { loadScene, addPart, removePart, cancel: () => pendingParts.clear() };
}
