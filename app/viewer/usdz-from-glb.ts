/**
 * A USDZ of a glTF model, made in the browser (issue 18 item 1: the "USDZ" download of a mesh). There is
 * no USDZ file on the server: the page downloads the GLB through its signed link, reads it with three's
 * GLTFLoader and writes it with the same exporter as AR Quick Look (ar.ts), so the file is the one
 * an iPhone would be shown. KTX2 textures need a renderer to decode and are not supported here.
 */
import { DRACOLoader } from "three/addons/loaders/DRACOLoader.js";
import { GLTFLoader } from "three/addons/loaders/GLTFLoader.js";
import { MeshoptDecoder } from "three/addons/libs/meshopt_decoder.module.js";
import { exportUsdz } from "./ar";
import { withTrailingSlash } from "./load-gltf";
import { disposeObject3D } from "./dispose-object";
import { DEFAULT_DECODER_PATH } from "./decoder-path";

export async function usdzFromGlb(bytes: ArrayBuffer, decoderPath = DEFAULT_DECODER_PATH): Promise<Blob> {
  const draco = new DRACOLoader().setDecoderPath(`${withTrailingSlash(decoderPath)}draco/`);
  const loader = new GLTFLoader().setDRACOLoader(draco).setMeshoptDecoder(MeshoptDecoder);
  try {
    const gltf = await loader.parseAsync(bytes, "");
    const object = gltf.scene ?? gltf.scenes?.[0];
    if (!object) throw new Error("The glTF file contains no scene");
    try {
      return await exportUsdz(object);
    } finally {
      disposeObject3D(object);
    }
  } finally {
    draco.dispose();
  }
}
