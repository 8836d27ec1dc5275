import { readFileSync } from "node:fs";
import path from "node:path";
import { Logger, NodeIO } from "@gltf-transform/core";
import { ALL_EXTENSIONS } from "@gltf-transform/extensions";
import { draco } from "@gltf-transform/functions";
import draco3d from "draco3dgltf";
import { describe, expect, it } from "vitest";
import { SHARED_DATA } from "../../tests/setup/shared-data";
import { decodeModel, renderDecoded } from "./render-thumbnail.server";

// Many exported models (Sketchfab, Polycam, Blender's default glTF export with compression) carry Draco
// geometry: their thumbnails are drawn from the decoded mesh, the same picture as the uncompressed file.

const cat = readFileSync(path.join(SHARED_DATA, "models/cat.glb"));

async function dracoCompressed(bytes: Uint8Array): Promise<Uint8Array> {
  const io = new NodeIO()
    .setLogger(new Logger(Logger.Verbosity.ERROR))
    .registerExtensions(ALL_EXTENSIONS)
    .registerDependencies({ "draco3d.encoder": await draco3d.createEncoderModule(), "draco3d.decoder": await draco3d.createDecoderModule() });
  const document = await io.readBinary(bytes);
  await document.transform(draco({ quantizePosition: 16, quantizeTexcoord: 14, quantizeNormal: 12 }));
  return io.writeBinary(document);
}

function psnr(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (Math.min(1, a[i]) - Math.min(1, b[i])) ** 2;
  return 10 * Math.log10(1 / (sum / a.length));
}

describe("GLB thumbnails of Draco-compressed models", () => {
  it("draws a Draco-compressed model as its uncompressed original", async () => {
    const compressed = await dracoCompressed(cat);
    expect(Buffer.from(compressed).includes("KHR_draco_mesh_compression")).toBe(true);
    const options = { width: 320, height: 240 };
    const plain = renderDecoded(await decodeModel(cat, "glb"), options);
    const decoded = await decodeModel(compressed, "glb");
    expect(decoded.kind).toBe("mesh");
    const fromDraco = renderDecoded(decoded, options);
    const measured = psnr(plain.rgb, fromDraco.rgb);
    // Bound: 16-bit positions and 14-bit UVs move texels by a fraction of a pixel at 320×240; 35 dB is
    // visually identical. Printed so a regression shows how far it went.
    console.warn(`[thumbnails] Draco cat vs the original: ${measured.toFixed(2)} dB PSNR (bound ≥ 35 dB)`);
    expect(measured).toBeGreaterThanOrEqual(35);
  });
});
