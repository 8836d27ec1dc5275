/**
 * "View in your space" for the viewer: which object AR places (the mesh on show, else the AR model set by
 * setArModel), which routes this browser offers, and opening it (WebXR, else the phone's AR viewer with the
 * server's files set by setArFiles: AR Quick Look or Scene Viewer). The AR code itself (ar.ts) loads only when
 * asked for.
 */
import type { Object3D } from "three";
import { detectFileFormat } from "../formats/model-format";
import type { ArFiles, ArSupport } from "./ar";
import { EMPTY_OR_CORRUPTED, LoadCancelledError } from "./errors";
import type { LoadedModel } from "./loaded-model";
import type { ViewerContext } from "./viewer-context";

export interface ArController {
  setArModel(load: (() => Promise<ArrayBuffer>) | null): void;
  /** The server's AR files of the model on show (null: none; Quick Look then gets a USDZ made here). */
  setArFiles(files: ArFiles | null): void;
  /** What AR shows: the mesh on show, else the AR model (null when there is neither). */
  arObject(): Promise<Object3D | null>;
  arSupport(): Promise<ArSupport>;
  /** Whether the model on show has something AR can place (on a phone that offers AR). */
  canPlaceInAr(): boolean;
  viewInAr(): Promise<void>;
  /** Frees the AR model (dispose()). */
  dispose(): void;
}

export function createArController(ctx: ViewerContext): ArController {
  // A glTF model placed in AR instead of the model on show (a scan's light textured mesh beside its splat):
  // downloaded and decoded on the first "View in your space", kept for the next, freed with the viewer.
  let arModelSource: (() => Promise<ArrayBuffer>) | null = null;
  let arModelLoad: Promise<LoadedModel> | null = null;
  let arFiles: ArFiles | null = null;

  function setArModel(load: (() => Promise<ArrayBuffer>) | null): void {
    arModelSource = load;
    const previous = arModelLoad;
    arModelLoad = null;
    previous?.then((loaded) => loaded.dispose(), () => undefined);
  }

  async function arObject(): Promise<Object3D | null> {
    if (ctx.model?.kind === "mesh") return ctx.model.object;
    const source = arModelSource;
    if (!source) return null;
    if (!arModelLoad) {
      const load = (async () => {
        const bytes = await source();
        if (!(bytes instanceof ArrayBuffer) || bytes.byteLength === 0) throw new Error(EMPTY_OR_CORRUPTED);
        const format = detectFileFormat(bytes, "model.glb");
        if (format !== "glb" && format !== "gltf") throw new Error("The model for viewing in your space is not a glTF file");
        if (ctx.disposed || !ctx.renderer) throw new LoadCancelledError("The viewer was disposed during loading");
        const { createGltfLoader, loadGltf } = await import("./load-gltf");
        if (ctx.disposed || !ctx.renderer) throw new LoadCancelledError("The viewer was disposed during loading");
        ctx.gltfLoader ??= createGltfLoader(ctx.renderer, ctx.settings.decoderPath);
        const loaded = await loadGltf(ctx.gltfLoader.loader, bytes, format);
        if (ctx.disposed) {
          loaded.dispose();
          throw new LoadCancelledError("The viewer was disposed during loading");
        }
        return loaded;
      })();
      arModelLoad = load;
      // A failed download may be retried by the next click.
      load.catch(() => {
        if (arModelLoad === load) arModelLoad = null;
      });
    }
    return (await arModelLoad).object;
  }

  function canPlaceInAr(): boolean {
    const { model } = ctx;
    return model?.kind === "mesh" || (!!model && (!!arModelSource || !!arFiles));
  }

  /** The routes of this browser that can show this model: Scene Viewer only with the server's GLB. */
  async function arSupport(): Promise<ArSupport> {
    if (!canPlaceInAr()) return { webxr: false, quickLook: false, sceneViewer: false };
    const { detectArSupport } = await import("./ar"); // AR code loads when a mesh (or an AR model) asks for it
    const support = await detectArSupport();
    const placeable = ctx.model?.kind === "mesh" || !!arModelSource;
    return {
      webxr: support.webxr && placeable,
      quickLook: support.quickLook && (placeable || !!arFiles),
      sceneViewer: support.sceneViewer && !!arFiles?.glb,
    };
  }

  async function viewInAr(): Promise<void> {
    const { model } = ctx;
    if (!model || !ctx.renderer || !ctx.loop || !canPlaceInAr()) throw new Error("Only 3D meshes (glTF) can be viewed in your space");
    const { exportUsdz, openInTopWindow, openQuickLook, runWebXrAr, sceneViewerIntent } = await import("./ar");
    const support = await arSupport();
    if (!support.webxr && !support.quickLook && !support.sceneViewer) throw new Error("Viewing in your space needs an ARCore phone or Safari on an iPhone or iPad");
    // The phone's own viewer with the server's files: nothing to decode or convert here.
    if (!support.webxr && support.quickLook && arFiles) {
      openQuickLook(arFiles.usdz);
      return;
    }
    if (!support.webxr && support.sceneViewer && arFiles?.glb) {
      openInTopWindow(sceneViewerIntent({ glbUrl: arFiles.glb, title: arFiles.title, fallbackUrl: window.location.href }));
      return;
    }
    const object = await arObject();
    const { renderer, loop } = ctx;
    if (!object || ctx.disposed || !renderer || !loop) return;
    if (support.webxr) {
      const release = loop.hold();
      try {
        await runWebXrAr({ renderer, object });
      } finally {
        release();
        ctx.resize();
      }
      return;
    }
    if (support.quickLook) {
      openQuickLook(await exportUsdz(object));
      return;
    }
    throw new Error("Viewing in your space needs an ARCore phone or Safari on an iPhone or iPad");
  }

  return {
    setArModel,
    setArFiles: (files: ArFiles | null) => {
      arFiles = files;
    },
    arObject,
    arSupport,
    canPlaceInAr,
    viewInAr,
    dispose: () => setArModel(null),
  };
}
