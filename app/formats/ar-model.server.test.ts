import { Document, getBounds, NodeIO, type Node } from "@gltf-transform/core";
import { ALL_EXTENSIONS } from "@gltf-transform/extensions";
import { readFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { Matrix3, Matrix4, Vector3 } from "three";
import { describe, expect, it } from "vitest";
import { assertValidGltf } from "~/worker/gltf-validation.server";
import { SHARED_DATA } from "../../tests/setup/shared-data";
import { AR_MAX_TRIANGLES, arModelFiles } from "./ar-model.server";
import { usdzOf, USDZ_ROOT_LAYER } from "./usdz.server";
import { entryDataStart, listZipEntries, LOCAL_HEADER_BYTES, zipEntryData } from "./zip";

// The AR files (issue 35 item 1): the USDZ read back by its own small reader here — geometry in world space
// against three.js's matrices, winding against the normals, UVs, material and texture bytes — and the files
// of a real model at a chosen real-world scale.

interface UsdMesh {
  name: string;
  points: number[][];
  indices: number[];
  normals: number[][] | null;
  st: number[][] | null;
  material: string;
  extent: number[][];
}

const tuples = (text: string) => [...text.matchAll(/\(([^()]*)\)/g)].map((m) => m[1].split(",").map(Number));
const between = (block: string, pattern: RegExp) => block.match(pattern)?.[1] ?? null;

function readUsdaMeshes(usda: string): UsdMesh[] {
  return usda
    .split(/\n {4}def Mesh /)
    .slice(1)
    .map((block) => {
      const body = block.split(/\n {4}}\n/)[0];
      const counts = between(body, /int\[\] faceVertexCounts = \[([^\]]*)\]/)!.split(",").map(Number);
      expect(counts.every((count) => count === 3)).toBe(true);
      const normals = between(body, /normal3f\[\] normals = \[([^\]]*)\]/);
      const st = between(body, /texCoord2f\[\] primvars:st = \[([^\]]*)\]/);
      return {
        name: JSON.parse(body.split(" ")[0]),
        points: tuples(between(body, /point3f\[\] points = \[([^\]]*)\]/)!),
        indices: between(body, /int\[\] faceVertexIndices = \[([^\]]*)\]/)!.split(",").map(Number),
        normals: normals ? tuples(normals) : null,
        st: st ? tuples(st) : null,
        material: between(body, /rel material:binding = <([^>]*)>/)!,
        extent: tuples(between(body, /float3\[\] extent = \[([^\]]*)\]/)!),
      };
    });
}

function readUsdz(usdz: Uint8Array) {
  const entries = listZipEntries(usdz);
  for (const entry of entries) {
    expect(entry.method).toBe(0); // stored
    expect(entryDataStart(usdz.subarray(entry.localHeaderOffset, entry.localHeaderOffset + LOCAL_HEADER_BYTES), entry) % 64).toBe(0);
  }
  expect(entries[0].name).toBe(USDZ_ROOT_LAYER);
  const files = new Map(entries.map((entry) => [entry.name, zipEntryData(usdz, entry)]));
  const usda = Buffer.from(files.get(USDZ_ROOT_LAYER)!).toString("utf8");
  return { files, usda, meshes: readUsdaMeshes(usda) };
}

const worldOf = (node: Node) => new Matrix4().fromArray(node.getWorldMatrix() as unknown as number[]);

describe("USDZ of a glTF document", () => {
  it("holds each mesh in world space (mirrored ones still facing out), with its UVs, material and texture", async () => {
    const document = new Document();
    const buffer = document.createBuffer();
    const png = new Uint8Array(await sharp({ create: { width: 4, height: 4, channels: 3, background: "#c04020" } }).png().toBuffer());
    const texture = document.createTexture("bricks").setImage(png).setMimeType("image/png");
    const material = document.createMaterial("Brick wall").setBaseColorFactor([0.5, 0.8, 1, 1]).setBaseColorTexture(texture).setRoughnessFactor(0.7).setMetallicFactor(0);
    // A quad facing +z, its normals +z, v running down the image as glTF has it.
    const positions = new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]);
    const primitive = document
      .createPrimitive()
      .setAttribute("POSITION", document.createAccessor().setType("VEC3").setArray(positions).setBuffer(buffer))
      .setAttribute("NORMAL", document.createAccessor().setType("VEC3").setArray(new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1])).setBuffer(buffer))
      .setAttribute("TEXCOORD_0", document.createAccessor().setType("VEC2").setArray(new Float32Array([0, 1, 1, 1, 1, 0, 0, 0])).setBuffer(buffer))
      .setIndices(document.createAccessor().setType("SCALAR").setArray(new Uint16Array([0, 1, 2, 0, 2, 3])).setBuffer(buffer))
      .setMaterial(material);
    const mesh = document.createMesh("Wall").addPrimitive(primitive);
    const parent = document.createNode("House").setTranslation([2, -1, 0.5]).setRotation([0, Math.sin(0.4), 0, Math.cos(0.4)]).setScale([1.5, 2, 0.5]);
    const turned = document.createNode("Front").setMesh(mesh).setTranslation([0.3, 0, 0]).setRotation([Math.sin(0.25), 0, 0, Math.cos(0.25)]);
    const mirrored = document.createNode("Mirror").setMesh(mesh).setScale([-1, 1, 1]);
    parent.addChild(turned).addChild(mirrored);
    document.createScene("Scene").addChild(parent);

    const { files, usda, meshes } = readUsdz(usdzOf(document));
    expect(usda).toMatch(/metersPerUnit = 1\n/);
    expect(usda).toMatch(/upAxis = "Y"\n/);
    expect(meshes.map((m) => m.name)).toEqual(["Front_0", "Mirror_0"]);
    let worst = 0;
    for (const [usdMesh, node] of [
      [meshes[0], turned],
      [meshes[1], mirrored],
    ] as const) {
      const world = worldOf(node);
      const normalMatrix = new Matrix3().getNormalMatrix(world);
      for (let i = 0; i < 4; i++) {
        const expected = new Vector3().fromArray(positions, 3 * i).applyMatrix4(world);
        worst = Math.max(worst, expected.distanceTo(new Vector3().fromArray(usdMesh.points[i])));
        expect(usdMesh.st![i][0]).toBeCloseTo([0, 1, 1, 0][i], 6);
        expect(usdMesh.st![i][1]).toBeCloseTo(1 - [1, 1, 0, 0][i], 6); // t = 1 - v
        const normal = new Vector3(0, 0, 1).applyMatrix3(normalMatrix).normalize();
        expect(new Vector3().fromArray(usdMesh.normals![i]).distanceTo(normal)).toBeLessThan(1e-5);
      }
      // Every triangle turns its front (counter-clockwise) side the way its normals point, mirrored or not.
      for (let t = 0; t < usdMesh.indices.length / 3; t++) {
        const [a, b, c] = [0, 1, 2].map((k) => new Vector3().fromArray(usdMesh.points[usdMesh.indices[3 * t + k]]));
        const face = new Vector3().subVectors(b, a).cross(new Vector3().subVectors(c, a));
        expect(face.dot(new Vector3().fromArray(usdMesh.normals![usdMesh.indices[3 * t]]))).toBeGreaterThan(0);
      }
      expect(usdMesh.material).toBe("/Root/Materials/Material_Brick_wall");
    }
    process.stdout.write(`[usdz] worst point error against three.js's world matrices: ${worst.toExponential(2)} (bound 1e-5)\n`);
    expect(worst).toBeLessThan(1e-5);
    // One material for both, its colour the texture scaled by the base colour factor; the texture's bytes as they were.
    expect(usda.match(/def Material /g)).toHaveLength(1);
    expect(usda).toContain("color3f inputs:diffuseColor.connect = </Root/Materials/Material_Brick_wall/BaseColor.outputs:rgb>");
    expect(usda).toContain("asset inputs:file = @textures/texture_0.png@");
    expect(usda).toContain("float4 inputs:scale = (0.5, 0.8, 1, 1)");
    expect(usda).toContain("float inputs:roughness = 0.7");
    expect(Buffer.from(files.get("textures/texture_0.png")!)).toEqual(Buffer.from(png));
  });
});

describe("AR files of a real model", () => {
  it("are a valid GLB and a USDZ of the same triangles, at the owner's real-world scale, standing on the floor", { timeout: 60_000 }, async () => {
    const source = new Uint8Array(readFileSync(path.join(SHARED_DATA, "models/cat.glb")));
    const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);
    const original = getBounds((await io.readBinary(source)).getRoot().listScenes()[0]);
    const metersPerUnit = 0.25;
    const files = await arModelFiles(source, metersPerUnit);
    const validated = await assertValidGltf(files.glb);
    expect(validated.triangles).toBe(files.triangles);
    expect(files.triangles).toBeLessThanOrEqual(AR_MAX_TRIANGLES);

    const placed = getBounds((await io.readBinary(files.glb)).getRoot().listScenes()[0]);
    const size = [0, 1, 2].map((k) => placed.max[k] - placed.min[k]);
    const expectedSize = [0, 1, 2].map((k) => (original.max[k] - original.min[k]) * metersPerUnit);
    process.stdout.write(
      `[ar] cat.glb at ${metersPerUnit} m/unit: ${files.triangles} triangles, ${size.map((s) => s.toFixed(4)).join(" × ")} m (expected ${expectedSize.map((s) => s.toFixed(4)).join(" × ")}), GLB ${files.glb.length} B, USDZ ${files.usdz.length} B\n`,
    );
    for (let k = 0; k < 3; k++) expect(Math.abs(size[k] - expectedSize[k])).toBeLessThan(1e-4 * expectedSize[1]);
    expect(Math.abs(placed.min[1])).toBeLessThan(1e-6); // on the floor
    expect(Math.abs(placed.min[0] + placed.max[0])).toBeLessThan(1e-6); // centred over the origin
    expect(Math.abs(placed.min[2] + placed.max[2])).toBeLessThan(1e-6);

    const { files: entries, meshes } = readUsdz(files.usdz);
    expect(meshes.reduce((sum, mesh) => sum + mesh.indices.length / 3, 0)).toBe(files.triangles);
    const min = [0, 1, 2].map((k) => Math.min(...meshes.map((mesh) => mesh.extent[0][k])));
    const max = [0, 1, 2].map((k) => Math.max(...meshes.map((mesh) => mesh.extent[1][k])));
    for (let k = 0; k < 3; k++) {
      expect(Math.abs(min[k] - placed.min[k])).toBeLessThan(1e-5);
      expect(Math.abs(max[k] - placed.max[k])).toBeLessThan(1e-5);
    }
    // Every texture the layer names is in the package, as a JPEG or PNG.
    for (const meshBlockFile of [...Buffer.from(entries.get(USDZ_ROOT_LAYER)!).toString().matchAll(/@(textures\/[^@]+)@/g)].map((m) => m[1])) {
      const image = entries.get(meshBlockFile);
      expect(image, meshBlockFile).toBeDefined();
      expect((await sharp(Buffer.from(image!)).metadata()).format).toMatch(/^(jpeg|png)$/);
    }
  });
});
