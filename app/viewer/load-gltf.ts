/** glTF / GLB decoding through three's GLTFLoader, with DRACO, KTX2 (Basis) and meshopt support. */
import { Box3, type Material, type Mesh, type Object3D, type WebGLRenderer } from "three";
import { DRACOLoader } from "three/addons/loaders/DRACOLoader.js";
import { GLTFLoader } from "three/addons/loaders/GLTFLoader.js";
import { KTX2Loader } from "three/addons/loaders/KTX2Loader.js";
import { MeshoptDecoder } from "three/addons/libs/meshopt_decoder.module.js";
import type { ModelFormat } from "../formats/model-format";
import { disposeObject3D } from "./dispose-object";
import { EMPTY_OR_CORRUPTED, toError } from "./errors";
import { glbIntegrityProblem } from "./glb-header";
import type { LoadedModel } from "./loaded-model";

export interface GltfLoaderHandle {
  loader: GLTFLoader;
  /** Terminates the decoder workers. */
  dispose(): void;
}

export function withTrailingSlash(path: string): string {
  return path.endsWith("/") ? path : `${path}/`;
}

/**
 * Meshopt-compressed buffers (our scans' GLBs, app/worker/web-glb.server.ts) are decoded in workers, not on the
 * main thread (issue 20): GLTFLoader takes decodeGltfBufferAsync, which uses them. One pool for the page,
 * made with the first glTF viewer; at most two workers, one fewer than the cores where there are few.
 */
let meshoptWorkers = false;
function decodeMeshoptInWorkers(): void {
  if (meshoptWorkers || typeof Worker === "undefined") return;
  meshoptWorkers = true;
  const cores = typeof navigator !== "undefined" && navigator.hardwareConcurrency ? navigator.hardwareConcurrency : 2;
  // Not a React hook, despite its name.
  // eslint-disable-next-line react-hooks/rules-of-hooks
  MeshoptDecoder.useWorkers(Math.max(1, Math.min(2, cores - 1)));
}

/** One loader per viewer: the DRACO and KTX2 workers are only started when a file needs them. */
export function createGltfLoader(renderer: WebGLRenderer, decoderPath: string): GltfLoaderHandle {
  const base = withTrailingSlash(decoderPath);
  decodeMeshoptInWorkers();
  const draco = new DRACOLoader().setDecoderPath(`${base}draco/`);
  const ktx2 = new KTX2Loader().setTranscoderPath(`${base}basis/`).detectSupport(renderer);
  const loader = new GLTFLoader().setDRACOLoader(draco).setKTX2Loader(ktx2).setMeshoptDecoder(MeshoptDecoder);
  return {
    loader,
    dispose() {
      draco.dispose();
      ktx2.dispose();
    },
  };
}

export async function loadGltf(loader: GLTFLoader, bytes: ArrayBuffer, format: ModelFormat): Promise<LoadedModel> {
  if (format === "glb") {
    const problem = glbIntegrityProblem(bytes);
    if (problem) throw new Error(`${EMPTY_OR_CORRUPTED} (${problem})`);
  }
  let gltf;
  try {
    gltf = await loader.parseAsync(bytes, "");
  } catch (error) {
    const detail = toError(error, "unknown parser error").message.replace(/^THREE\.GLTFLoader: /, "");
    throw new Error(`The glTF model could not be read: ${detail}`);
  }
  const object = gltf.scene ?? gltf.scenes?.[0];
  if (!object) throw new Error("The glTF file contains no scene");
  showUnlitAsStored(object);
  object.updateMatrixWorld(true);
  const box = new Box3().setFromObject(object, true);
  if (box.isEmpty() || !Number.isFinite(box.min.x + box.max.x + box.min.y + box.max.y + box.min.z + box.max.z)) {
    disposeObject3D(object);
    throw new Error("The glTF file contains no visible geometry");
  }
  return {
    kind: "mesh",
    object,
    bounds: { min: box.min.toArray(), max: box.max.toArray() },
    dispose: () => disposeObject3D(object),
  };
}

/**
 * Unlit materials (KHR_materials_unlit: a scan's baked texture, which already holds the light of the photos) are shown
 * with their stored colours: three would otherwise put them through the viewer's tone mapping, which darkens every
 * colour by its offset and flattens highlights (a scan's mesh looked darker and duller than its photos; issue 38).
 * Lit materials keep the tone mapping. Returns how many materials it changed.
 */
export function showUnlitAsStored(root: Object3D): number {
  let changed = 0;
  root.traverse((node) => {
    const material = (node as Mesh).material as Material | Material[] | undefined;
    if (!material) return;
    for (const m of Array.isArray(material) ? material : [material]) {
      if ((m as { isMeshBasicMaterial?: boolean }).isMeshBasicMaterial && m.toneMapped) {
        m.toneMapped = false;
        changed++;
      }
    }
  });
  return changed;
}
