/**
 * Loading one model (load()): the download (with the first splats of a streamed .ply or .splat, or the model's
 * coarse level, on show meanwhile), the decode (Spark or GLTFLoader), and putting the model on show: replacing
 * the one before, lighting, framing the camera (the core then waits until it is drawn). scene-parts.ts loads
 * scenes with the same steps.
 */
import { detectFileFormat, type ModelFormat } from "../formats/model-format";
import { viewDirectionFor } from "./camera-fit";
import { boundsRadius } from "./bounds";
import { applyCameraView } from "./camera-view";
import type { ModelDownload } from "./download";
import { takeEarlyDecode, type EarlyDecoded } from "./early-decode";
import { EMPTY_OR_CORRUPTED, LoadCancelledError, toError } from "./errors";
import { frameCamera } from "./frame-camera";
import { DEFAULT_SPLAT_TIMEOUT_MS, isSplatFormat, loadSpark, loadSplat } from "./load-splat";
import { markLoad } from "./load-marks";
import type { LoadedModel } from "./loaded-model";
import { isSceneModel } from "./scene-model";
import { receiveDownload, type PreviewBytes } from "./streamed-load";
import type { LoadRequest, StreamedLoadRequest, ViewerPreviewEvent } from "./types";
import type { ViewerContext } from "./viewer-context";

const mark = markLoad;

export interface DecodedModel {
  model: LoadedModel;
  format: ModelFormat;
}

/** A load begun by beginLoad(), until a newer one (or dispose()) supersedes it. */
export interface BegunLoad {
  isCurrent(): boolean;
  /** The error a superseded load rejects with. */
  cancellation(): LoadCancelledError;
  /** The error to reject with (reported through "error" while the load is current and not cancelled). */
  fail(error: unknown, fallback: string): Error;
  /** Aborted when the load is superseded: a scene load stops waiting for its parts. */
  signal: AbortSignal;
}

export interface ModelLoading {
  load(request: LoadRequest | StreamedLoadRequest): Promise<void>;
  /** Starts a load that supersedes the one in flight (if any). */
  beginLoad(): BegunLoad;
  /** Loads begun so far: a load (or addPart()) whose count is no longer this one was superseded. */
  readonly generation: number;
  /**
   * Decodes a whole file: the format from its magic bytes (the name as a tie-breaker), splats
   * through Spark, glTF through GLTFLoader. Rejects with a readable Error.
   */
  decodeModel(bytes: ArrayBuffer, fileName: string | undefined, onProgress?: (loaded: number, total: number | null) => void, early?: Promise<EarlyDecoded | null> | null): Promise<DecodedModel>;
  /** Puts a decoded model on show (lighting, the model, the framing), keeping the camera when `keepCamera`. */
  presentModel(next: LoadedModel, format: ModelFormat, keepCamera: boolean): void;
  /** Frames the camera on the model (the owner's saved opening view wins). */
  frameModel(shown: LoadedModel): void;
  /** The ids of the scene parts on show (none for a single model). */
  partIds(): string[];
  /** Aborts the load in flight (dispose()). */
  cancel(): void;
}

export function createModelLoading(ctx: ViewerContext): ModelLoading {
  const { events, scene, camera, controls, settings } = ctx;
  const { splatBudget, splatTimeoutMs, decoderPath, viewDirection, initialCamera } = settings;
  let loadCounter = 0;
  /** Aborted when a newer load (or dispose) supersedes the current one: a scene load stops waiting for its parts. */
  let loadAbort: AbortController | null = null;

  /** Puts `next` in the scene instead of the model on show (Spark keeps drawing its last sort until the next one). */
  function replaceModel(next: LoadedModel): void {
    if (ctx.model) {
      scene.remove(ctx.model.object);
      ctx.model.dispose();
    }
    ctx.model = next;
    scene.add(next.object);
    ctx.requestRender();
    events.emit("parts", partIds());
  }

  function partIds(): string[] {
    const { model } = ctx;
    return isSceneModel(model) ? [...model.parts.keys()] : [];
  }

  /**
   * Puts a decoded model on show: lighting for its kind, then the camera framed on it (and moved to
   * the item's saved opening view), unless `keepCamera` (the user has moved since the preview).
   */
  function presentModel(next: LoadedModel, format: ModelFormat, keepCamera: boolean): void {
    ctx.applyLighting(next.kind, ctx.ensureRenderer(next.kind === "mesh"));
    replaceModel(next);
    ctx.modelFormat = format;
    const kept = keepCamera ? { position: camera.position.clone(), target: controls.target.clone() } : null;
    frameModel(next);
    if (kept) {
      camera.position.copy(kept.position);
      controls.target.copy(kept.target);
      if (!ctx.fly?.active) controls.update();
    }
  }

  /** Frames the camera on the model; the owner's saved opening view (item settings) wins, the zoom limits stay the fit's. */
  function frameModel(shown: LoadedModel): void {
    frameCamera(camera, controls, shown.bounds, viewDirection ?? viewDirectionFor(shown.kind));
    if (initialCamera) {
      applyCameraView(camera, controls, initialCamera, boundsRadius(shown.bounds));
      controls.saveState(); // "reset view" returns here
    }
    ctx.requestRender();
  }

  async function decodeModel(
    bytes: ArrayBuffer,
    fileName: string | undefined,
    onProgress?: (loaded: number, total: number | null) => void,
    early?: Promise<EarlyDecoded | null> | null,
  ): Promise<DecodedModel> {
    let adopted = false;
    try {
      const { fromEarly, ...decoded } = await decodeFile(bytes, fileName, onProgress, early);
      adopted = fromEarly;
      return decoded;
    } finally {
      // An early decode not taken (other bytes or settings, or this decode failed) is let go.
      if (early && !adopted) early.then((unused) => unused?.model.dispose()).catch(() => undefined);
    }
  }

  async function decodeFile(
    bytes: ArrayBuffer,
    fileName: string | undefined,
    onProgress: ((loaded: number, total: number | null) => void) | undefined,
    early: Promise<EarlyDecoded | null> | null | undefined,
  ): Promise<DecodedModel & { fromEarly: boolean }> {
    if (!(bytes instanceof ArrayBuffer) || bytes.byteLength === 0) throw new Error(EMPTY_OR_CORRUPTED);
    const format = detectFileFormat(bytes, fileName);
    if (!format) throw new Error(EMPTY_OR_CORRUPTED);
    const splat = isSplatFormat(format);
    const target = ctx.ensureRenderer(!splat);
    if (splat) {
      await ctx.ensureSpark(target);
      mark("splat-renderer");
      // The page's early decode of these same bytes (early-decode.ts), when it made what we would make.
      const earlier = early ? await early.catch(() => null) : null;
      if (earlier && earlier.bytes === bytes && earlier.format === format && earlier.splatBudget === splatBudget && splatTimeoutMs === DEFAULT_SPLAT_TIMEOUT_MS) {
        mark("early-decode-taken");
        return { format, model: earlier.model, fromEarly: true };
      }
      return { format, model: await loadSplat({ bytes, format, fileName, timeoutMs: splatTimeoutMs, splatBudget, onProgress }), fromEarly: false };
    }
    // GLTFLoader and its decoders load with the first mesh: a splat page never downloads them (issue 20).
    const { createGltfLoader, loadGltf } = await import("./load-gltf");
    if (ctx.disposed) throw new LoadCancelledError("The viewer was disposed during loading");
    ctx.gltfLoader ??= createGltfLoader(target, decoderPath);
    return { format, model: await loadGltf(ctx.gltfLoader.loader, bytes, format), fromEarly: false };
  }

  function beginLoad(): BegunLoad {
    loadAbort?.abort();
    const abort = new AbortController();
    loadAbort = abort;
    const token = ++loadCounter;
    const isCurrent = () => !ctx.disposed && token === loadCounter;
    const cancellation = () =>
      new LoadCancelledError(ctx.disposed ? "The viewer was disposed during loading" : "A newer model replaced this one");
    const fail = (error: unknown, fallback: string): Error => {
      const err = error instanceof LoadCancelledError ? error : toError(error, fallback);
      if (isCurrent() && !(err instanceof LoadCancelledError)) events.emit("error", err);
      return err;
    };
    ctx.firstFrameAt = null;
    ctx.readyAt = null;
    return { isCurrent, cancellation, fail, signal: abort.signal };
  }

  /**
   * Puts a partial model (a download's first splats, or the model's coarse level) on show before the whole
   * model, and says so; resolves whether it was shown (not when a newer load superseded it meanwhile).
   */
  async function presentPartial(partial: LoadedModel, format: ModelFormat, isCurrent: () => boolean, preview: ViewerPreviewEvent): Promise<boolean> {
    if (!isCurrent()) {
      partial.dispose();
      return false;
    }
    presentModel(partial, format, false);
    await ctx.waitForFirstDraw("splat");
    if (!isCurrent() || ctx.model !== partial) return false;
    events.emit("preview", preview);
    return true;
  }

  /** Shows the first splats of a download that is still running (streamed-load.ts). A failure here is not the load's. */
  async function showPreview(preview: PreviewBytes, fileName: string | undefined, isCurrent: () => boolean): Promise<boolean> {
    try {
      await ctx.ensureSpark(ctx.ensureRenderer(false));
      const partial = await loadSplat({ bytes: preview.bytes.buffer as ArrayBuffer, format: preview.format, fileName, timeoutMs: splatTimeoutMs });
      return await presentPartial(partial, preview.format, isCurrent, {
        format: preview.format,
        from: "prefix",
        splatCount: partial.splatCount ?? preview.splats,
        loaded: preview.loaded,
        total: preview.total,
      });
    } catch {
      return false; // the whole file follows; its errors are the ones reported
    }
  }

  /**
   * Shows the model's coarse level (StreamedLoadRequest.coarse) when it is decoded before the whole model
   * (`wholeDecoded`); `presenting` receives the presentation under way, which the whole model waits for. A
   * failure here is not the load's: the whole model follows.
   */
  async function showCoarse({
    coarse,
    whole,
    fileName,
    isCurrent,
    wholeDecoded,
    presenting,
  }: {
    coarse: ModelDownload;
    whole: ModelDownload;
    fileName: string | undefined;
    isCurrent: () => boolean;
    wholeDecoded: () => boolean;
    presenting: (shown: Promise<boolean>) => void;
  }): Promise<boolean> {
    const early = takeEarlyDecode(coarse);
    try {
      const bytes = await coarse.done;
      if (!isCurrent() || wholeDecoded()) {
        early?.then((unused) => unused?.model.dispose()).catch(() => undefined);
        return false;
      }
      const { model: partial, format } = await decodeModel(bytes, fileName, undefined, early);
      if (!isSplatFormat(format) || wholeDecoded()) {
        partial.dispose();
        return false;
      }
      mark("coarse-decoded");
      const shown = presentPartial(partial, format, isCurrent, { format, from: "coarse", splatCount: partial.splatCount ?? 0, loaded: whole.loaded, total: whole.total });
      presenting(shown);
      return await shown;
    } catch {
      return false;
    }
  }

  async function load(request: LoadRequest | StreamedLoadRequest): Promise<void> {
    if (ctx.disposed) throw new Error("The viewer has been disposed");
    const { fileName } = request;
    const { isCurrent, cancellation, fail } = beginLoad();

    const started = performance.now();
    mark("load");
    let previewedAt: number | null = null;
    let loaded: LoadedModel;
    let format: ModelFormat;
    // A decode the page started before the viewer existed (decision 035); disposed when not used.
    let early = "download" in request ? takeEarlyDecode(request.download) : null;
    // The coarse level goes on show meanwhile when it is decoded first; the whole model then waits for a
    // presentation under way (its first frame is bounded) and replaces it.
    let wholeDecoded = false;
    let coarsePresenting: Promise<boolean> | null = null;
    if ("download" in request && request.coarse) {
      void showCoarse({
        coarse: request.coarse,
        whole: request.download,
        fileName,
        isCurrent,
        wholeDecoded: () => wholeDecoded,
        presenting: (shown) => (coarsePresenting = shown),
      });
    }
    try {
      const bytes =
        "download" in request
          ? await receiveDownload({
              download: request.download,
              fileName,
              isCurrent,
              // Spark (~0.9 MB gzipped) downloads alongside the splat file instead of after it.
              onFormat: (detected) => {
                if (isSplatFormat(detected)) loadSpark().catch(() => undefined);
              },
              showPreview: async (preview) => {
                if (await showPreview(preview, fileName, isCurrent)) previewedAt = ctx.interactions;
              },
            })
          : request.bytes;
      if (!isCurrent()) throw cancellation();
      mark("received");
      const pending = early;
      early = null;
      ({ model: loaded, format } = await decodeModel(
        bytes,
        fileName,
        (done, total) => {
          if (isCurrent()) events.emit("progress", { loaded: done, total });
        },
        pending,
      ));
      mark("decoded");
    } catch (error) {
      early?.then((unused) => unused?.model.dispose()).catch(() => undefined);
      throw fail(error, EMPTY_OR_CORRUPTED);
    } finally {
      wholeDecoded = true;
    }
    const coarseShown = coarsePresenting !== null && (await (coarsePresenting as Promise<boolean>));
    try {
      // Spark may have been retired meanwhile (removePart() took the last splat of the scene on show).
      if (loaded.kind === "splat" && isCurrent()) await ctx.ensureSpark(ctx.ensureRenderer(false));
    } catch (error) {
      loaded.dispose();
      throw fail(error, "The splat renderer could not be loaded");
    }
    if (!isCurrent()) {
      loaded.dispose();
      throw cancellation();
    }

    try {
      // After the coarse level the camera stays where it is (framed on the same splat, or moved by the user);
      // after a download's first splats it is framed on the whole model unless the user has moved since.
      presentModel(loaded, format, coarseShown || (previewedAt !== null && previewedAt !== ctx.interactions));
      ctx.swapping = coarseShown || previewedAt !== null;
      await ctx.waitForFirstDraw(loaded.kind);
      ctx.readyAt = performance.now();
    } catch (error) {
      throw fail(error, "The model could not be displayed");
    } finally {
      ctx.swapping = false;
    }
    if (!isCurrent()) throw cancellation();
    events.emit("ready", {
      format,
      loadMs: Math.round(performance.now() - started),
      ...(loaded.splatCount !== undefined ? { splatCount: loaded.splatCount } : {}),
    });
  }

  return {
    load,
    beginLoad,
    get generation() {
      return loadCounter;
    },
    decodeModel,
    presentModel,
    frameModel,
    partIds,
    cancel: () => loadAbort?.abort(),
  };
}
