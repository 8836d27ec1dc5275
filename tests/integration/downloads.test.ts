// Downloads (issue 18 item 1): GET /v1/item/{id}/downloads lists the files a caller may download, each
// with a short-lived signed link that saves the plain file; the owner gets everything, others only a
// visible model's files while its owner allows downloads (never a scan's input), anyone else a 404.
// Every link issued is in the audit log.
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createIdentity, type TestIdentity } from "../setup/firebase-users";
import { serveAppForFile } from "../setup/served-app";
import { SHARED_DATA } from "../setup/shared-data";
import { uploadReadyModel } from "../setup/upload-model";

const catGlb = readFileSync(path.join(SHARED_DATA, "models/cat.glb"));
const guitarPly = readFileSync(path.join(SHARED_DATA, "splats/guitar.ply"));
const guitarSog = readFileSync(path.join(SHARED_DATA, "splats/guitar.compressed.ply")); // any bytes stand for the .sog copy
const specularGlb = readFileSync(path.join(SHARED_DATA, "models/SpecularTest.glb"));
const photoBytes = [Buffer.from("\xff\xd8\xff\xe0 first photo", "latin1"), Buffer.from("\xff\xd8\xff\xe0 second photo", "latin1")];

const app = serveAppForFile();
const api = app.api;
let alice: TestIdentity;
let bob: TestIdentity;
let aliceId: string;
let bobId: string;

interface DownloadFile {
  kind: string;
  format: string;
  file_name: string;
  size: number;
  url: string;
}

beforeAll(async () => {
  [alice, bob] = await Promise.all([createIdentity({ name: "Alice" }), createIdentity({ name: "Bob" })]);
  aliceId = (await api("GET", "/user", { token: alice.idToken })).json.data.user.id;
  bobId = (await api("GET", "/user", { token: bob.idToken })).json.data.user.id;
});

/**
 * A finished photo-set scan as the worker publishes it (app/worker/outcome.server.ts, reported through app/domain/scan-outcomes.server.ts): its splat .ply,
 * the .sog delivery copy made from it, the textured mesh and its light level, and the two input photos.
 */
async function seedFinishedScan(name: string): Promise<{ itemId: string; stored: Record<string, Buffer> }> {
  const created = await api("POST", "/item", { token: alice.idToken, body: { model_type: "ply", upload_type: "image", name } });
  expect(created.status).toBe(200);
  const itemId: string = created.json.data.item_id;
  const [{ db }, { storage }] = await Promise.all([import("~/db.server"), import("~/storage/index.server")]);
  const base = `items/${itemId}/scan/`;
  const keys = {
    splat: `${base}model-0123456789abcdef.ply`,
    delivery: `items/${itemId}/delivery/0123456789abcdef01234567.sog`,
    mesh: `${base}mesh-0123456789abcdef.glb`,
    mesh_lite: `${base}mesh-lite-0123456789abcdef.glb`,
  };
  const stored: Record<string, Buffer> = { splat: guitarPly, delivery: guitarSog, mesh: catGlb, mesh_lite: specularGlb };
  for (const [kind, key] of Object.entries(keys)) await storage().write(key, stored[kind]);
  for (const [i, bytes] of photoBytes.entries()) {
    const fileName = `image-00${i + 1}.jpg`;
    const key = `items/${itemId}/images/${fileName}`;
    await storage().write(key, bytes);
    await db().upload.create({ data: { itemId, kind: "image", key, fileName, size: BigInt(bytes.length), completedAt: new Date() } });
    stored[fileName] = bytes;
  }
  await db().item.update({
    where: { id: itemId },
    data: {
      status: "ready",
      fileKey: keys.splat,
      fileSize: BigInt(guitarPly.length),
      fileFormat: "ply",
      deliveryKey: keys.delivery,
      deliverySize: BigInt(guitarSog.length),
      deliveryFormat: "sog",
      deliverySourceKey: keys.splat,
      meshKey: keys.mesh,
      meshSize: BigInt(catGlb.length),
      meshLiteKey: keys.mesh_lite,
      meshLiteSize: BigInt(specularGlb.length),
    },
  });
  return { itemId, stored };
}

async function downloads(itemId: string, token?: string, query = "") {
  return api("GET", `/item/${itemId}/downloads${query}`, { token });
}

async function fetchFile(file: DownloadFile) {
  const response = await fetch(file.url);
  return { status: response.status, disposition: response.headers.get("Content-Disposition"), bytes: Buffer.from(await response.arrayBuffer()) };
}

async function downloadAudit(itemId: string) {
  const { db } = await import("~/db.server");
  return db().auditLog.findMany({ where: { targetType: "item", targetId: itemId, action: "item.download_link" }, orderBy: { createdAt: "asc" } });
}

function expectNotFound(answer: { status: number; json: { status: number; error: string } }) {
  expect(answer.status).toBe(404);
  expect(answer.json).toMatchObject({ status: 404, error: "not_found" });
}

describe("downloads of an uploaded model", () => {
  it("gives its owner the file as uploaded, plain bytes saved under the model's name, and audits the link", async () => {
    const itemId = await uploadReadyModel(api, alice, { bytes: catGlb, modelType: "glb", name: "Cat: the model" });
    const answer = await downloads(itemId, alice.idToken);
    expect(answer.status).toBe(200);
    expect(answer.json.data).toMatchObject({ item_id: itemId, allow_downloads: false });
    expect(Date.parse(answer.json.data.expires_at)).toBeGreaterThan(Date.now());
    const files: DownloadFile[] = answer.json.data.files;
    expect(files.map((f) => [f.kind, f.format, f.file_name, f.size])).toEqual([["model", "glb", "Cat_ the model.glb", catGlb.length]]);

    const got = await fetchFile(files[0]);
    expect(got.status).toBe(200);
    expect(got.disposition).toBe('attachment; filename="Cat_ the model.glb"');
    expect(got.bytes.equals(catGlb)).toBe(true); // the plain file, not the viewer's obfuscated stream

    const audit = await downloadAudit(itemId);
    expect(audit.map((entry) => [entry.actorId, (entry.after as { kind: string }).kind])).toEqual([[aliceId, "model"]]);
    expect(audit[0].after).toMatchObject({ file_name: "Cat_ the model.glb", size: catGlb.length, as_owner: true });
  });

  it("answers 404 to another user and to a signed-out visitor while downloads are off, public or not, and audits nothing", async () => {
    const itemId = await uploadReadyModel(api, alice, { bytes: catGlb, modelType: "glb", name: "cat", visibility: "public" });
    expect((await api("GET", `/item/${itemId}`)).json.data.allow_downloads).toBe(false);
    expectNotFound(await downloads(itemId, bob.idToken));
    expectNotFound(await downloads(itemId));
    expectNotFound(await downloads("00000000-0000-4000-8000-000000000000", alice.idToken));
    expect(await downloadAudit(itemId)).toEqual([]);
  });

  it("lets only the owner change allow_downloads, and only to a boolean", async () => {
    const itemId = await uploadReadyModel(api, alice, { bytes: catGlb, modelType: "glb", name: "cat", visibility: "public" });
    expectNotFound(await api("PATCH", `/item/${itemId}`, { token: bob.idToken, body: { allow_downloads: true } }));
    const wrong = await api("PATCH", `/item/${itemId}`, { token: alice.idToken, body: { allow_downloads: "yes" } });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error).toBe("invalid_input");
    const patched = await api("PATCH", `/item/${itemId}`, { token: alice.idToken, body: { allow_downloads: true } });
    expect(patched.status).toBe(200);
    expect(patched.json.data.allow_downloads).toBe(true);
    expect((await api("GET", `/item/${itemId}`, { token: bob.idToken })).json.data.allow_downloads).toBe(true);
  });

  it("once allowed, gives others who can see the model its file; a private model stays a 404", async () => {
    const itemId = await uploadReadyModel(api, alice, { bytes: catGlb, modelType: "glb", name: "cat", visibility: "public" });
    await api("PATCH", `/item/${itemId}`, { token: alice.idToken, body: { allow_downloads: true } });
    for (const token of [bob.idToken, undefined]) {
      const answer = await downloads(itemId, token);
      expect(answer.status).toBe(200);
      const files: DownloadFile[] = answer.json.data.files;
      expect(files.map((f) => f.kind)).toEqual(["model"]);
      expect((await fetchFile(files[0])).bytes.equals(catGlb)).toBe(true);
    }
    expect((await downloadAudit(itemId)).map((entry) => entry.actorId)).toEqual([bobId, null]);

    await api("PATCH", `/item/${itemId}`, { token: alice.idToken, body: { visibility: "private" } });
    expectNotFound(await downloads(itemId, bob.idToken));
    expectNotFound(await downloads(itemId));
  });

  it("refuses an unknown kind or query parameter with a 400", async () => {
    const itemId = await uploadReadyModel(api, alice, { bytes: catGlb, modelType: "glb", name: "cat" });
    for (const query of ["?kind=usdz", "?original=true"]) {
      const answer = await downloads(itemId, alice.idToken, query);
      expect(answer.status).toBe(400);
      expect(answer.json.error).toBe("invalid_input");
    }
    expect(await downloadAudit(itemId)).toEqual([]);
  });
});

describe("downloads of a finished scan", () => {
  it("gives its owner every output and the input photos, byte for byte, each link audited", async () => {
    const { itemId, stored } = await seedFinishedScan("Guitar scan");
    const answer = await downloads(itemId, alice.idToken);
    expect(answer.status).toBe(200);
    const files: DownloadFile[] = answer.json.data.files;
    expect(files.map((f) => [f.kind, f.format, f.file_name])).toEqual([
      ["splat", "ply", "Guitar scan.ply"],
      ["delivery", "sog", "Guitar scan.sog"],
      ["mesh", "glb", "Guitar scan mesh.glb"],
      ["mesh_lite", "glb", "Guitar scan mesh lite.glb"],
      ["photo", "jpg", "Guitar scan image-001.jpg"],
      ["photo", "jpg", "Guitar scan image-002.jpg"],
    ]);
    const expected = [stored.splat, stored.delivery, stored.mesh, stored.mesh_lite, stored["image-001.jpg"], stored["image-002.jpg"]];
    for (const [i, file] of files.entries()) {
      const got = await fetchFile(file);
      expect(got.status, file.file_name).toBe(200);
      expect(got.disposition).toBe(`attachment; filename="${file.file_name}"`);
      expect(file.size).toBe(expected[i].length);
      expect(got.bytes.equals(expected[i]), file.file_name).toBe(true);
    }
    // What a client parses: a PLY header and a GLB header (magic "glTF", version 2, its own length).
    const ply = (await fetchFile(files[0])).bytes;
    expect(ply.subarray(0, 4).toString("latin1")).toBe("ply\n");
    const glb = (await fetchFile(files[2])).bytes;
    expect(glb.subarray(0, 4).toString("latin1")).toBe("glTF");
    expect(glb.readUInt32LE(4)).toBe(2);
    expect(glb.readUInt32LE(8)).toBe(glb.length);

    const audit = await downloadAudit(itemId);
    expect(audit.map((entry) => [entry.actorId, (entry.after as { file_name: string }).file_name])).toEqual(
      files.map((file) => [aliceId, file.file_name]),
    );
  });

  it("asked for one kind, issues (and audits) that one link only", async () => {
    const { itemId, stored } = await seedFinishedScan("Guitar scan");
    const answer = await downloads(itemId, alice.idToken, "?kind=mesh");
    expect(answer.status).toBe(200);
    const files: DownloadFile[] = answer.json.data.files;
    expect(files.map((f) => f.kind)).toEqual(["mesh"]);
    expect((await fetchFile(files[0])).bytes.equals(stored.mesh)).toBe(true);
    expect((await downloadAudit(itemId)).map((entry) => (entry.after as { kind: string }).kind)).toEqual(["mesh"]);
  });

  it("gives others the scan's model files once allowed, never its input photos", async () => {
    const { itemId, stored } = await seedFinishedScan("Guitar scan");
    await api("PATCH", `/item/${itemId}`, { token: alice.idToken, body: { visibility: "unlisted" } });
    expectNotFound(await downloads(itemId, bob.idToken));
    await api("PATCH", `/item/${itemId}`, { token: alice.idToken, body: { allow_downloads: true } });
    const answer = await downloads(itemId, bob.idToken);
    expect(answer.status).toBe(200);
    const files: DownloadFile[] = answer.json.data.files;
    expect(files.map((f) => f.kind)).toEqual(["splat", "delivery", "mesh", "mesh_lite"]);
    expect((await fetchFile(files[1])).bytes.equals(stored.delivery)).toBe(true);
    expect((await downloads(itemId, bob.idToken, "?kind=photo")).json.data.files).toEqual([]);
    const audit = await downloadAudit(itemId);
    expect(audit.every((entry) => entry.actorId === bobId && (entry.after as { as_owner: boolean }).as_owner === false)).toBe(true);
    expect(audit).toHaveLength(4);
  });
});
