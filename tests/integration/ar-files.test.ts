import { getBounds, NodeIO } from "@gltf-transform/core";
import { ALL_EXTENSIONS } from "@gltf-transform/extensions";
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { listZipEntries } from "~/formats/zip";
import { createIdentity, type TestIdentity } from "../setup/firebase-users";
import { serveAppForFile } from "../setup/served-app";
import { SHARED_DATA } from "../setup/shared-data";
import { uploadReadyModel } from "../setup/upload-model";

// "View in your space" with the server's files (issue 35 item 1): a model's API object offers a USDZ (AR Quick
// Look) and a GLB (Scene Viewer) made on the server on first request, kept, at the owner's real-world scale, for
// whoever may see the model — and for nobody else.

const app = serveAppForFile();
const api = app.api;
let alice: TestIdentity;

beforeAll(async () => {
  alice = await createIdentity({ name: "Alice AR" });
});

function uploadModel(file: string, modelType: "glb" | "ply", name: string, visibility: "public" | "private"): Promise<string> {
  return uploadReadyModel(api, alice, { bytes: readFileSync(path.join(SHARED_DATA, file)), modelType, name, visibility });
}

async function sceneSize(glb: Uint8Array): Promise<number[]> {
  const { min, max } = getBounds((await new NodeIO().registerExtensions(ALL_EXTENSIONS).readBinary(glb)).getRoot().listScenes()[0]);
  return [0, 1, 2].map((k) => max[k] - min[k]);
}

describe("AR files (issue 35 item 1)", () => {
  it("a public model's USDZ and GLB are made on the server on first request, then served as kept, to anyone", { timeout: 120_000 }, async () => {
    const itemId = await uploadModel("models/cat.glb", "glb", "AR cat", "public");
    const item = (await api("GET", `/item/${itemId}`)).json.data;
    expect(item.ar).toEqual({ usdz_url: expect.stringMatching(new RegExp(`^/v1/item/${itemId}/ar/usdz\\?v=[0-9a-f]{16}$`)), glb_url: expect.stringMatching(/\/ar\/glb\?v=/) });

    const started = Date.now();
    const usdz = await fetch(`${app.url}${item.ar.usdz_url}`); // a visitor: no token, no cookie
    const firstMs = Date.now() - started;
    expect(usdz.status).toBe(200);
    expect(usdz.headers.get("content-type")).toBe("model/vnd.usdz+zip");
    expect(usdz.headers.get("cache-control")).toBe("private, max-age=86400");
    const usdzBytes = new Uint8Array(await usdz.arrayBuffer());
    const entries = listZipEntries(usdzBytes);
    expect(entries[0].name).toBe("model.usda");
    expect(entries.map((entry) => entry.name)).toContain("textures/texture_0.jpg");

    const glb = await fetch(`${app.url}${item.ar.glb_url}`);
    expect(glb.headers.get("content-type")).toBe("model/gltf-binary");
    const glbBytes = new Uint8Array(await glb.arrayBuffer());
    expect(Buffer.from(glbBytes.subarray(0, 4)).toString("latin1")).toBe("glTF");
    // Kept: the same bytes again (same ETag), and a cached copy is confirmed without a body.
    const again = await fetch(`${app.url}${item.ar.usdz_url}`);
    expect(again.headers.get("etag")).toBe(usdz.headers.get("etag"));
    expect(Buffer.from(await again.arrayBuffer()).equals(Buffer.from(usdzBytes))).toBe(true);
    expect((await fetch(`${app.url}${item.ar.usdz_url}`, { headers: { "If-None-Match": usdz.headers.get("etag")! } })).status).toBe(304);
    process.stdout.write(`[ar] cat.glb: USDZ ${usdzBytes.length} B (${entries.length} files) made and served in ${firstMs} ms; GLB ${glbBytes.length} B\n`);

    // The owner measures the model: one unit is 4 cm. New links, new files at that scale.
    expect((await api("PATCH", `/item/${itemId}/settings`, { token: alice.idToken, body: { meters_per_unit: 0.04 } })).status).toBe(200);
    const scaled = (await api("GET", `/item/${itemId}`)).json.data.ar;
    expect(scaled.glb_url).not.toBe(item.ar.glb_url);
    const scaledBytes = new Uint8Array(await (await fetch(`${app.url}${scaled.glb_url}`)).arrayBuffer());
    const [before, after] = [await sceneSize(glbBytes), await sceneSize(scaledBytes)];
    process.stdout.write(`[ar] height at 1 m/unit ${before[1].toFixed(4)} m, at 0.04 m/unit ${after[1].toFixed(4)} m\n`);
    for (let k = 0; k < 3; k++) expect(after[k] / before[k]).toBeCloseTo(0.04, 6);
  });

  it("a private model's AR files are its owner's only; a splat without a mesh has none; a bad file name is a 400", { timeout: 120_000 }, async () => {
    const itemId = await uploadModel("models/cat.glb", "glb", "Private AR cat", "private");
    const ar = (await api("GET", `/item/${itemId}`, { token: alice.idToken })).json.data.ar;
    expect((await fetch(`${app.url}${ar.usdz_url}`)).status).toBe(404);
    const bob = await createIdentity({ name: "Bob AR" });
    expect((await fetch(`${app.url}${ar.usdz_url}`, { headers: { Authorization: `Bearer ${bob.idToken}` } })).status).toBe(404);
    expect((await fetch(`${app.url}${ar.usdz_url}`, { headers: { Authorization: `Bearer ${alice.idToken}` } })).status).toBe(200);

    const bad = await api("GET", `/item/${itemId}/ar/obj`, { token: alice.idToken });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ status: 400, error: "invalid_input" });

    const splat = await uploadModel("splats/guitar.ply", "ply", "AR guitar", "public");
    expect((await api("GET", `/item/${splat}`)).json.data.ar).toBeNull();
    const none = await api("GET", `/item/${splat}/ar/usdz`);
    expect(none.json).toMatchObject({ status: 404, message: "AR model not found." });
  });
});
