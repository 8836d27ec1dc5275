import type { Document, NodeIO } from "@gltf-transform/core";
import type { DecoderModule } from "draco3dgltf";

/**
 * Reads a GLB into a glTF-Transform document with `io` (its extensions and meshopt decoder registered by the
 * caller), registering Draco's decoder only for a file that uses Draco. One home for the thumbnails' reader and
 * the Shopify-ready GLB.
 */
const DRACO_EXTENSION = "KHR_draco_mesh_compression";
let dracoDecoder: Promise<DecoderModule> | null = null;

/** Draco's decoder (WebAssembly, ~1 MB): created once per process, and only for a GLB that needs it. */
function draco(): Promise<DecoderModule> {
  dracoDecoder ??= import("draco3dgltf").then((module) => (module.default ?? module).createDecoderModule());
  return dracoDecoder;
}

export async function readGlbDocument(io: NodeIO, bytes: Uint8Array): Promise<Document> {
  const json = await io.binaryToJSON(bytes);
  if (json.json.extensionsUsed?.includes(DRACO_EXTENSION)) io.registerDependencies({ "draco3d.decoder": await draco() });
  return io.readJSON(json);
}
