// The splat clean-up editor's server side (issue 18 item 5): GET /v1/supersplat/jwt issues a short
// editor token for the caller (and an item of theirs); the version routes take it in X-Editor-Token
// and refuse missing, tampered, expired, wrong-audience and foreign tokens. Versions: the original
// is version 1, a saved .ply becomes version 2 and current, garbage is a 400 that changes nothing,
// restoring brings version 1 back without deleting version 2, and deleting the item deletes both files.
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createIdentity, type TestIdentity } from "../setup/firebase-users";
import { serveAppForFile } from "../setup/served-app";
import { SHARED_DATA } from "../setup/shared-data";
import { uploadReadyModel } from "../setup/upload-model";

const guitarPly = readFileSync(path.join(SHARED_DATA, "splats/guitar.ply"));
const guitarCompressed = readFileSync(path.join(SHARED_DATA, "splats/guitar.compressed.ply"));
const catGlb = readFileSync(path.join(SHARED_DATA, "models/cat.glb"));
const GUITAR_SPLATS = 90_854;

const app = serveAppForFile();
const api = app.api;
let alice: TestIdentity;
let bob: TestIdentity;
let aliceId: string;
let aliceSplat: string;
let aliceOther: string;
let bobSplat: string;

beforeAll(async () => {
  [alice, bob] = await Promise.all([createIdentity({ name: "Alice" }), createIdentity({ name: "Bob" })]);
  aliceId = (await api("GET", "/user", { token: alice.idToken })).json.data.user.id;
  [aliceSplat, aliceOther, bobSplat] = await Promise.all([
    uploadReadyModel(api, alice, { bytes: guitarPly, modelType: "ply", name: "Guitar" }),
    uploadReadyModel(api, alice, { bytes: guitarPly, modelType: "ply", name: "Guitar two" }),
    uploadReadyModel(api, bob, { bytes: guitarPly, modelType: "ply", name: "Bob's guitar" }),
  ]);
});

async function editorToken(owner: TestIdentity, itemId?: string): Promise<string> {
  const answer = await api("GET", `/supersplat/jwt${itemId ? `?item_id=${itemId}` : ""}`, { token: owner.idToken });
  expect(answer.status).toBe(200);
  return answer.json.data.jwt;
}

const withToken = (token: string) => ({ headers: { "X-Editor-Token": token } });
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8"));

/** A token signed with the server's own key but with claims of the test's choosing (expired, other audience …). */
async function forgeWithServerKey(claims: Record<string, unknown>): Promise<string> {
  const { editorTokenSecret } = await import("~/auth/editor-token.server");
  const header = Buffer.from(JSON.stringify({ alg: "HS256", typ: "JWT" })).toString("base64url");
  const payload = Buffer.from(JSON.stringify(claims)).toString("base64url");
  const signature = createHmac("sha256", editorTokenSecret()).update(`${header}.${payload}`).digest("base64url");
  return `${header}.${payload}.${signature}`;
}

/** The first `count` splats of a 3DGS .ply (header rewritten), as the editor's save writes them. */
function firstSplats(ply: Buffer, count: number): Buffer {
  const end = ply.indexOf("end_header\n") + "end_header\n".length;
  const header = ply.subarray(0, end).toString("latin1");
  const properties = (header.match(/^property /gm) ?? []).length;
  return Buffer.concat([Buffer.from(header.replace(/element vertex \d+/, `element vertex ${count}`), "latin1"), ply.subarray(end, end + count * properties * 4)]);
}

async function saveVersion(token: string, itemId: string, bytes: Buffer) {
  const started = await api("POST", `/item/${itemId}/versions`, withToken(token));
  expect(started.status).toBe(200);
  const put = await fetch(started.json.data.url, { method: "PUT", body: new Uint8Array(bytes) });
  return { started: started.json.data, put, commit: await api("POST", `/item/${itemId}/versions/${started.json.data.version_id}/commit`, withToken(token)) };
}

describe("GET /v1/supersplat/jwt", () => {
  it("answers 401 signed out", async () => {
    const answer = await api("GET", "/supersplat/jwt");
    expect(answer.status).toBe(401);
    expect(answer.json).toMatchObject({ status: 401, error: "unauthorized" });
  });

  it("issues a 15-minute token for the caller and their item", async () => {
    const token = await editorToken(alice, aliceSplat);
    const claims = claimsOf(token);
    expect(claims).toMatchObject({ iss: app.url, aud: "scanroom-editor", sub: aliceId, item_id: aliceSplat });
    expect(claims.exp - claims.iat).toBe(15 * 60);
    expect(Math.abs(claims.iat - Date.now() / 1000)).toBeLessThan(120);
    expect(claimsOf(await editorToken(alice)).item_id).toBeUndefined();
  });

  it("answers 404 for another user's item or an unknown one, 400 for a malformed id", async () => {
    expect((await api("GET", `/supersplat/jwt?item_id=${bobSplat}`, { token: alice.idToken })).json).toMatchObject({ status: 404, error: "not_found" });
    expect((await api("GET", "/supersplat/jwt?item_id=00000000-0000-4000-8000-000000000000", { token: alice.idToken })).status).toBe(404);
    expect((await api("GET", "/supersplat/jwt?item_id=nope", { token: alice.idToken })).json).toMatchObject({ status: 400, error: "invalid_input" });
  });
});

describe("editor tokens on the version routes", () => {
  it("refuses a missing, malformed or tampered token with 401", async () => {
    expect((await api("GET", `/item/${aliceSplat}/versions`)).json).toMatchObject({ status: 401, error: "unauthorized" });
    // The identity token alone is not an editor token.
    expect((await api("GET", `/item/${aliceSplat}/versions`, { token: alice.idToken })).status).toBe(401);
    expect((await api("GET", `/item/${aliceSplat}/versions`, withToken("not.a.token"))).status).toBe(401);
    const token = await editorToken(bob, bobSplat);
    const [header, , signature] = token.split(".");
    const tampered = Buffer.from(JSON.stringify({ ...claimsOf(token), item_id: aliceSplat })).toString("base64url");
    const answer = await api("GET", `/item/${aliceSplat}/versions`, withToken(`${header}.${tampered}.${signature}`));
    expect(answer.json).toMatchObject({ status: 401, error: "unauthorized", message: "The editor token's signature is not valid." });
  });

  it("refuses an expired token and one for another audience with 401", async () => {
    const now = Math.floor(Date.now() / 1000);
    const base = { iss: app.url, aud: "scanroom-editor", sub: aliceId, item_id: aliceSplat, jti: "t" };
    const expired = await forgeWithServerKey({ ...base, iat: now - 1000, exp: now - 100 });
    expect((await api("GET", `/item/${aliceSplat}/versions`, withToken(expired))).json).toMatchObject({ status: 401, message: "The editor token has expired; open the editor again." });
    const otherAudience = await forgeWithServerKey({ ...base, aud: "someone-else", iat: now, exp: now + 600 });
    expect((await api("GET", `/item/${aliceSplat}/versions`, withToken(otherAudience))).status).toBe(401);
    const fresh = await forgeWithServerKey({ ...base, iat: now, exp: now + 600 });
    expect((await api("GET", `/item/${aliceSplat}/versions`, withToken(fresh))).status).toBe(200);
  });

  it("refuses a valid token for another item (403) and a token naming someone else's item (404)", async () => {
    const bobsToken = await editorToken(bob, bobSplat);
    expect((await api("GET", `/item/${aliceSplat}/versions`, withToken(bobsToken))).json).toMatchObject({ status: 403, error: "forbidden" });
    expect((await api("GET", `/item/${aliceOther}/splats`, withToken(await editorToken(alice, aliceSplat)))).status).toBe(403);
    expect((await api("POST", `/item/${aliceSplat}/versions`, withToken(await editorToken(alice)))).status).toBe(403);
    // Signed by the server but naming an item its user does not own: the same 404 as for any item not theirs.
    const now = Math.floor(Date.now() / 1000);
    const foreign = await forgeWithServerKey({ iss: app.url, aud: "scanroom-editor", sub: aliceId, item_id: bobSplat, iat: now, exp: now + 600, jti: "f" });
    expect((await api("GET", `/item/${bobSplat}/versions`, withToken(foreign))).json).toMatchObject({ status: 404, error: "not_found" });
  });
});

describe("versions", () => {
  it("lists the original, saves a cropped version, refuses garbage, restores the original and keeps both", async () => {
    const token = await editorToken(alice, aliceSplat);
    const listed = await api("GET", `/item/${aliceSplat}/versions`, withToken(token));
    expect(listed.status).toBe(200);
    expect(listed.json.data.versions).toEqual([
      expect.objectContaining({ number: 1, label: "Original", format: "ply", size: guitarPly.length, splat_count: GUITAR_SPLATS, is_current: true }),
    ]);
    const original = listed.json.data.versions[0];

    // The current splats as a .ply: the upload itself.
    const splats = await fetch(`${app.url}/v1/item/${aliceSplat}/splats`, withToken(token));
    expect(splats.status).toBe(200);
    expect(Buffer.from(await splats.arrayBuffer()).equals(guitarPly)).toBe(true);

    // A .ply header over a body that is too short: stored, then refused by the commit; nothing changes.
    const { db } = await import("~/db.server");
    const before = await db().item.findUniqueOrThrow({ where: { id: aliceSplat } });
    const truncated = firstSplats(guitarPly, 1000).subarray(0, 20_000);
    const bad = await saveVersion(token, aliceSplat, truncated);
    expect(bad.put.status).toBe(200);
    expect(bad.commit.json).toMatchObject({ status: 400, error: "invalid_file" });
    expect(bad.commit.json.message).toMatch(/^The saved file is not a gaussian splat \.ply: body has/);
    const { storage } = await import("~/storage/index.server");
    expect(await storage().stat(bad.started.path)).toBeNull();
    expect(await db().item.findUniqueOrThrow({ where: { id: aliceSplat } })).toMatchObject({ fileKey: before.fileKey, fileSize: before.fileSize });
    expect((await api("GET", `/item/${aliceSplat}/versions`, withToken(token))).json.data.versions).toHaveLength(1);

    // Bytes that are not a .ply at all never get stored.
    const garbage = await saveVersion(token, aliceSplat, Buffer.from("this is not a splat file at all"));
    expect(garbage.put.status).not.toBe(200);
    expect(garbage.commit.json).toMatchObject({ status: 409, error: "conflict" });

    const cropped = firstSplats(guitarPly, 1000);
    const saved = await saveVersion(token, aliceSplat, cropped);
    expect(saved.commit.status).toBe(200);
    expect(saved.commit.json.data.version).toMatchObject({ number: 2, label: "Edited", format: "ply", size: cropped.length, splat_count: 1000, is_current: true });
    const afterSave = (await api("GET", `/item/${aliceSplat}/versions`, withToken(token))).json.data.versions;
    expect(afterSave.map((v: { number: number; is_current: boolean }) => [v.number, v.is_current])).toEqual([
      [2, true],
      [1, false],
    ]);
    const item = (await api("GET", `/item/${aliceSplat}`, { token: alice.idToken })).json.data;
    expect(item.file_size).toBe(cropped.length);
    const current = await fetch(`${app.url}/v1/item/${aliceSplat}/splats`, withToken(token));
    expect(Buffer.from(await current.arrayBuffer()).equals(cropped)).toBe(true);
    // Viewers get the new file (or its delivery copy, once made) through the usual file route.
    expect((await db().item.findUniqueOrThrow({ where: { id: aliceSplat } })).fileKey).toBe(saved.started.path);

    const restored = await api("POST", `/item/${aliceSplat}/versions/${original.id}/restore`, withToken(token));
    expect(restored.status).toBe(200);
    expect(restored.json.data.version).toMatchObject({ number: 1, is_current: true });
    const afterRestore = (await api("GET", `/item/${aliceSplat}/versions`, withToken(token))).json.data.versions;
    expect(afterRestore.map((v: { number: number; is_current: boolean }) => [v.number, v.is_current])).toEqual([
      [2, false],
      [1, true],
    ]);
    const back = await fetch(`${app.url}/v1/item/${aliceSplat}/splats`, withToken(token));
    expect(Buffer.from(await back.arrayBuffer()).equals(guitarPly)).toBe(true);
    expect(await storage().stat(saved.started.path)).not.toBeNull();
    // Each change of the model's file is in the audit log, by the owner.
    const audit = await db().auditLog.findMany({ where: { targetId: aliceSplat, action: { startsWith: "item.version_" } }, orderBy: { createdAt: "asc" } });
    expect(audit.map((entry) => [entry.action, entry.actorId, (entry.after as { version_number: number }).version_number])).toEqual([
      ["item.version_saved", aliceId, 2],
      ["item.version_restored", aliceId, 1],
    ]);

    // Another user's token cannot restore or commit here; an unknown version is a 404.
    const bobsToken = await editorToken(bob, bobSplat);
    expect((await api("POST", `/item/${aliceSplat}/versions/${original.id}/restore`, withToken(bobsToken))).status).toBe(403);
    expect((await api("POST", `/item/${bobSplat}/versions/${original.id}/restore`, withToken(bobsToken))).json).toMatchObject({ status: 404, error: "not_found" });
    expect((await api("POST", `/item/${aliceSplat}/versions/not-a-uuid/restore`, withToken(token))).status).toBe(400);
  });

  it("numbers two saves made at once apart, and deletes every version's file with the item", async () => {
    const token = await editorToken(alice, aliceOther);
    const saves = await Promise.all([saveVersion(token, aliceOther, firstSplats(guitarPly, 500)), saveVersion(token, aliceOther, firstSplats(guitarPly, 600))]);
    expect(saves.map((saved) => saved.commit.status)).toEqual([200, 200]);
    expect(saves.map((saved) => saved.commit.json.data.version.number).sort()).toEqual([2, 3]);
    const { storage } = await import("~/storage/index.server");
    const { db } = await import("~/db.server");
    const keys = (await db().itemVersion.findMany({ where: { itemId: aliceOther } })).map((v) => v.fileKey);
    expect(keys).toHaveLength(3);
    expect((await api("DELETE", `/item/${aliceOther}`, { token: alice.idToken })).status).toBe(200);
    for (const key of keys) expect(await storage().stat(key)).toBeNull();
    expect(await db().itemVersion.count({ where: { itemId: aliceOther } })).toBe(0);
  });

  it("discards a save abandoned past its upload link's life when the next save starts, and keeps a recent one", async () => {
    const token = await editorToken(alice, aliceSplat);
    const { storage } = await import("~/storage/index.server");
    const { db } = await import("~/db.server");
    const abandoned = (await api("POST", `/item/${aliceSplat}/versions`, withToken(token))).json.data;
    expect((await fetch(abandoned.url, { method: "PUT", body: new Uint8Array(firstSplats(guitarPly, 100)) })).status).toBeLessThan(300);
    const recent = (await api("POST", `/item/${aliceSplat}/versions`, withToken(token))).json.data;
    // The first save was started two hours ago (its link lived one hour) and never committed.
    await db().itemVersion.update({ where: { id: abandoned.version_id }, data: { createdAt: new Date(Date.now() - 2 * 3600_000) } });
    expect(await storage().stat(abandoned.path)).not.toBeNull();

    const saved = await saveVersion(token, aliceSplat, firstSplats(guitarPly, 700));
    expect(saved.commit.status).toBe(200);
    expect(await db().itemVersion.findUnique({ where: { id: abandoned.version_id } })).toBeNull();
    expect(await storage().stat(abandoned.path)).toBeNull();
    expect(await db().itemVersion.findUnique({ where: { id: recent.version_id } })).not.toBeNull();
    // The abandoned save's link cannot commit any more; the versions list never showed it.
    expect((await api("POST", `/item/${aliceSplat}/versions/${abandoned.version_id}/commit`, withToken(token))).status).toBe(404);
    const listed = (await api("GET", `/item/${aliceSplat}/versions`, withToken(token))).json.data.versions.map((v: { id: string }) => v.id);
    expect(listed).not.toContain(abandoned.version_id);
    expect(listed).toContain(saved.started.version_id);
  });

  it("converts a compressed .ply to a standard one for the editor, and refuses meshes", async () => {
    const compressed = await uploadReadyModel(api, alice, { bytes: guitarCompressed, modelType: "ply", name: "Compressed guitar" });
    const token = await editorToken(alice, compressed);
    const answer = await fetch(`${app.url}/v1/item/${compressed}/splats`, withToken(token));
    expect(answer.status).toBe(200);
    const bytes = Buffer.from(await answer.arrayBuffer());
    const { validateSplatPly } = await import("~/formats/splat-ply");
    expect(validateSplatPly(bytes).count).toBe(GUITAR_SPLATS);

    const mesh = await uploadReadyModel(api, alice, { bytes: catGlb, modelType: "glb", name: "Cat" });
    const refused = await api("GET", `/item/${mesh}/versions`, withToken(await editorToken(alice, mesh)));
    expect(refused.json).toMatchObject({ status: 400, error: "invalid_file", message: "Only gaussian splats can be cleaned up; this model is a mesh." });
  });
});
