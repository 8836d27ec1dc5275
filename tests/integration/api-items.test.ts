import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { XOR_KEY } from "../setup/config";
import { createIdentity, type TestIdentity } from "../setup/firebase-users";
import { serveAppForFile } from "../setup/served-app";
import { SHARED_DATA } from "../setup/shared-data";

const DATA = SHARED_DATA;
const guitarPly = readFileSync(path.join(DATA, "splats/guitar.ply"));
const catGlb = readFileSync(path.join(DATA, "models/cat.glb"));

const app = serveAppForFile();
const api = app.api;
let alice: TestIdentity;
let bob: TestIdentity;

async function countItems() {
  const { db } = await import("~/db.server");
  return db().item.count();
}

async function uploadModel(owner: TestIdentity, bytes: Buffer, modelType: "glb" | "ply" | "ksplat") {
  const created = await api("POST", "/item", { token: owner.idToken, body: { model_type: modelType, upload_type: "model" } });
  expect(created.status).toBe(200);
  const itemId: string = created.json.data.item_id;
  const link = await api("GET", `/upload/item/${itemId}?uploadType=model`, { token: owner.idToken });
  expect(link.status).toBe(200);
  const put = await fetch(link.json.data.url, { method: "PUT", body: new Uint8Array(bytes) });
  return { itemId, link: link.json.data as { path: string; url: string }, put };
}

beforeAll(async () => {
  [alice, bob] = await Promise.all([createIdentity({ name: "Alice" }), createIdentity({ name: "Bob" })]);
});

describe("identity", () => {
  it("GET /v1/user creates our user on first sight, on the free plan, not admin", async () => {
    const res = await api("GET", "/user", { token: alice.idToken });
    expect(res.status).toBe(200);
    expect(res.json.data.user).toMatchObject({ email: alice.email, is_admin: false, email_verified: true, plan: { plan_type: "free" } });
  });

  it("answers 401 'Email not verified' to an unverified account", async () => {
    const unverified = await createIdentity({ verified: false });
    const res = await api("GET", "/user", { token: unverified.idToken });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ status: 401, error: "email_not_verified", message: "Email not verified" });
  });

  it("answers 401 to a missing or forged token", async () => {
    expect((await api("GET", "/user")).status).toBe(401);
    const forged = alice.idToken.slice(0, -4) + "abcd";
    const res = await api("GET", "/user", { token: `${forged}x` });
    expect(res.status).toBe(401);
    expect(res.json.error).toBe("unauthorized");
  });

  it("GET /v1/user/{id} shows public fields only", async () => {
    const me = await api("GET", "/user", { token: alice.idToken });
    const res = await api("GET", `/user/${me.json.data.user.id}`);
    expect(res.status).toBe(200);
    expect(res.json.data.user.display_name).toBe("Alice");
    expect(res.json.data.user).not.toHaveProperty("email");
    expect((await api("GET", "/user/not-a-uuid")).status).toBe(400);
  });
});

describe("POST /v1/item validation", () => {
  it("creates an item and answers its uuid", async () => {
    const res = await api("POST", "/item", { token: alice.idToken, body: { model_type: "glb", upload_type: "model", name: "Chair" } });
    expect(res.status).toBe(200);
    expect(res.json.data.item_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each([
    [{ model_type: "obj", upload_type: "model" }, "model_type must be one of glb, ply, ksplat, spz, splat, sog"],
    [{ model_type: "glb", upload_type: "scan" }, "upload_type must be one of model, image, video"],
    [{ upload_type: "model" }, "model_type"],
    [{ model_type: "glb", upload_type: "model", owner_id: "x" }, "owner_id"],
    [{ model_type: "glb", upload_type: "model", name: "" }, "name must not be empty"],
  ])("refuses %j with a clear 400 and writes nothing", async (body, message) => {
    const before = await countItems();
    const res = await api("POST", "/item", { token: alice.idToken, body });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe("invalid_input");
    expect(res.json.message).toContain(message);
    expect(await countItems()).toBe(before);
  });

  it("refuses malformed JSON, a missing body and an oversized body", async () => {
    const before = await countItems();
    const bad = await api("POST", "/item", { token: alice.idToken, rawBody: "{not json" });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toBe("invalid_json");
    const empty = await api("POST", "/item", { token: alice.idToken });
    expect(empty.status).toBe(400);
    const huge = await api("POST", "/item", {
      token: alice.idToken,
      body: { model_type: "glb", upload_type: "model", name: "x".repeat(200_000) },
    });
    expect(huge.status).toBe(413);
    expect(huge.json.error).toBe("payload_too_large");
    expect(await countItems()).toBe(before);
  });

  it("refuses signed-out callers", async () => {
    const res = await api("POST", "/item", { body: { model_type: "glb", upload_type: "model" } });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ status: 401, error: "unauthorized" });
  });
});

describe("the model-file flow", () => {
  it("uploads, confirms, renames and serves a .ply obfuscated with the XOR key", async () => {
    const { itemId, put } = await uploadModel(alice, guitarPly, "ply");
    expect(put.status).toBe(200);
    const size = await api("POST", `/item/${itemId}/file/size`, { token: alice.idToken, body: { size: guitarPly.length } });
    expect(size.status).toBe(200);
    expect(size.json.data).toMatchObject({ status: "ready", file_size: guitarPly.length });
    const renamed = await api("PATCH", `/item/${itemId}`, { token: alice.idToken, body: { name: "guitar" } });
    expect(renamed.json.data).toMatchObject({ name: "guitar", status: "ready", file_format: "ply", model_url: `/v1/item/${itemId}/file` });

    // The original as uploaded (viewers get a compact .sog copy once it is made: viewer-delivery.test.ts).
    const file = await fetch(`${app.url}/v1/item/${itemId}/file?original=true`, { headers: { Authorization: `Bearer ${alice.idToken}` } });
    expect(file.status).toBe(200);
    expect(Number(file.headers.get("content-length"))).toBe(guitarPly.length);
    const bytes = new Uint8Array(await file.arrayBuffer());
    expect(bytes.length).toBe(guitarPly.length);
    const key = new TextEncoder().encode(XOR_KEY);
    expect(Buffer.from(bytes.subarray(0, 4))).not.toEqual(guitarPly.subarray(0, 4));
    const decoded = bytes.map((b, i) => b ^ key[i % key.length]);
    expect(Buffer.from(decoded).equals(guitarPly)).toBe(true);

    const again = await fetch(`${app.url}/v1/item/${itemId}/file?original=true`, {
      headers: { Authorization: `Bearer ${alice.idToken}`, "If-None-Match": file.headers.get("etag")! },
    });
    expect(again.status).toBe(304);

    // Downloaded again in full: the bytes the web process now holds (XORed once) are the same bytes.
    const held = await fetch(`${app.url}/v1/item/${itemId}/file?original=true`, { headers: { Authorization: `Bearer ${alice.idToken}` } });
    expect(held.headers.get("etag")).toBe(file.headers.get("etag"));
    expect(Buffer.from(await held.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
  });

  it("rejects bytes that do not match the declared type and stores nothing", async () => {
    const { itemId, link, put } = await uploadModel(alice, guitarPly, "glb");
    expect(put.status).toBe(400);
    expect((await put.json()).error).toBe("invalid_file");
    const { storage } = await import("~/storage/index.server");
    expect(await storage().stat(link.path)).toBeNull();
    const size = await api("POST", `/item/${itemId}/file/size`, { token: alice.idToken, body: { size: guitarPly.length } });
    expect(size.status).toBe(409);
    const item = await api("GET", `/item/${itemId}`, { token: alice.idToken });
    expect(item.json.data.status).toBe("uploading");
  });

  it("accepts the size as file_size (the item's own field name) as well as size, but not both", async () => {
    const { itemId, put } = await uploadModel(alice, catGlb, "glb");
    expect(put.status).toBe(200);
    const both = await api("POST", `/item/${itemId}/file/size`, { token: alice.idToken, body: { size: catGlb.length, file_size: catGlb.length } });
    expect(both.status).toBe(400);
    expect(both.json).toMatchObject({ status: 400, error: "invalid_input" });
    const size = await api("POST", `/item/${itemId}/file/size`, { token: alice.idToken, body: { file_size: catGlb.length } });
    expect(size.status).toBe(200);
    expect(size.json.data).toMatchObject({ status: "ready", file_size: catGlb.length });
  });

  it("rejects a gzip of HTML declared as a splat (.spz by its bytes) before it is ready, and deletes it", async () => {
    const html = gzipSync(Buffer.from("<!doctype html><html><body>not a model</body></html>"));
    const { itemId, link, put } = await uploadModel(alice, html, "ply");
    expect(put.status).toBe(200);
    const size = await api("POST", `/item/${itemId}/file/size`, { token: alice.idToken, body: { size: html.length } });
    expect(size.status).toBe(400);
    expect(size.json).toMatchObject({ status: 400, error: "invalid_file" });
    expect(size.json.message).toMatch(/SPZ header/);
    const { storage } = await import("~/storage/index.server");
    expect(await storage().stat(link.path)).toBeNull();
    expect((await api("GET", `/item/${itemId}`, { token: alice.idToken })).json.data.status).toBe("uploading");
  });

  it("rejects a zip whose meta.json is HTML declared as a splat (.sog by its bytes) before it is ready", async () => {
    const { sogLikeZip } = await import("../setup/sog-like-zip");
    const bundle = sogLikeZip({ "meta.json": "<!doctype html><html><body>not a model</body></html>" });
    const { itemId, link, put } = await uploadModel(alice, bundle, "ply");
    expect(put.status).toBe(200);
    const size = await api("POST", `/item/${itemId}/file/size`, { token: alice.idToken, body: { size: bundle.length } });
    expect(size.status).toBe(400);
    expect(size.json).toMatchObject({ status: 400, error: "invalid_file" });
    expect(size.json.message).toMatch(/meta\.json is not JSON/);
    const { storage } = await import("~/storage/index.server");
    expect(await storage().stat(link.path)).toBeNull();
    expect((await api("GET", `/item/${itemId}`, { token: alice.idToken })).json.data.status).toBe("uploading");
  });

  it("rejects a reported size that differs from the stored file, and deletes it", async () => {
    const { itemId, link, put } = await uploadModel(alice, catGlb, "glb");
    expect(put.status).toBe(200);
    const size = await api("POST", `/item/${itemId}/file/size`, { token: alice.idToken, body: { size: 12 } });
    expect(size.status).toBe(400);
    expect(size.json.error).toBe("invalid_file");
    const { storage } = await import("~/storage/index.server");
    expect(await storage().stat(link.path)).toBeNull();
  });
});

describe("signed storage URLs", () => {
  it("refuse a changed path, method, expiry or signature, and an expired link; accept the untouched one", async () => {
    const created = await api("POST", "/item", { token: alice.idToken, body: { model_type: "glb", upload_type: "model" } });
    const itemId = created.json.data.item_id;
    const link = await api("GET", `/upload/item/${itemId}?uploadType=model`, { token: alice.idToken });
    const url = new URL(link.json.data.url);

    const otherPath = new URL(url);
    otherPath.pathname = url.pathname.replace(/[0-9a-f-]{36}\.glb$/, "00000000-0000-4000-8000-000000000000.glb");
    expect((await fetch(otherPath, { method: "PUT", body: new Uint8Array(catGlb) })).status).toBe(403);

    expect((await fetch(url, { method: "GET" })).status).toBe(403);

    const laterExpiry = new URL(url);
    laterExpiry.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 3600));
    expect((await fetch(laterExpiry, { method: "PUT", body: new Uint8Array(catGlb) })).status).toBe(403);

    const biggerLimit = new URL(url);
    biggerLimit.searchParams.set("max", "99999999999");
    expect((await fetch(biggerLimit, { method: "PUT", body: new Uint8Array(catGlb) })).status).toBe(403);

    const badSig = new URL(url);
    badSig.searchParams.set("sig", url.searchParams.get("sig")!.replace(/^./, (c) => (c === "A" ? "B" : "A")));
    const badSigResponse = await fetch(badSig, { method: "PUT", body: new Uint8Array(catGlb) });
    expect(badSigResponse.status).toBe(403);
    expect(await badSigResponse.json()).toMatchObject({ status: 403, error: "invalid_signature" });

    const { storage } = await import("~/storage/index.server");
    const expired = await storage().createUploadUrl({ key: link.json.data.path, expiresInSeconds: -5, maxBytes: 10_000_000, expect: "glb" });
    const expiredResponse = await fetch(expired, { method: "PUT", body: new Uint8Array(catGlb) });
    expect(expiredResponse.status).toBe(403);
    expect((await expiredResponse.json()).message).toBe("This link has expired.");
    expect(await storage().stat(link.json.data.path)).toBeNull();

    expect((await fetch(url, { method: "PUT", body: new Uint8Array(catGlb) })).status).toBe(200);
    expect((await storage().stat(link.json.data.path))?.size).toBe(catGlb.length);
  });

  it("refuses an upload larger than the signed limit and keeps nothing", async () => {
    const { storage } = await import("~/storage/index.server");
    // A link of an existing item (a link of an item that does not exist is refused first: 404).
    const created = await api("POST", "/item", { token: alice.idToken, body: { model_type: "glb", upload_type: "model" } });
    const key = `items/${created.json.data.item_id}/model/limit.glb`;
    const url = await storage().createUploadUrl({ key, expiresInSeconds: 60, maxBytes: 1000, expect: "glb" });
    const response = await fetch(url, { method: "PUT", body: new Uint8Array(catGlb) });
    expect(response.status).toBe(413);
    expect(await storage().stat(key)).toBeNull();
  });
});

describe("authorization", () => {
  it("hides another user's private item: 404 for read, update, delete, download and upload link", async () => {
    const { itemId } = await uploadModel(alice, catGlb, "glb");
    await api("POST", `/item/${itemId}/file/size`, { token: alice.idToken, body: { size: catGlb.length } });
    for (const [method, p, body] of [
      ["GET", `/item/${itemId}`],
      ["PATCH", `/item/${itemId}`, { name: "mine now" }],
      ["DELETE", `/item/${itemId}`],
      ["GET", `/item/${itemId}/file`],
      ["GET", `/upload/item/${itemId}?uploadType=model`],
      ["POST", `/item/${itemId}/file/size`, { size: 1 }],
    ] as const) {
      const res = await api(method, p, { token: bob.idToken, body });
      expect(res.status, `${method} ${p}`).toBe(404);
      expect(res.json.error).toBe("not_found");
    }
    expect((await api("GET", `/item/${itemId}`)).status).toBe(404);
    const still = await api("GET", `/item/${itemId}`, { token: alice.idToken });
    expect(still.json.data.name).toBe("Untitled model");
  });

  it("lets anyone view a public item but only its owner change it", async () => {
    const { itemId } = await uploadModel(alice, catGlb, "glb");
    await api("POST", `/item/${itemId}/file/size`, { token: alice.idToken, body: { size: catGlb.length } });
    await api("PATCH", `/item/${itemId}`, { token: alice.idToken, body: { visibility: "public", name: "Public cat" } });
    const seen = await api("GET", `/item/${itemId}`);
    expect(seen.status).toBe(200);
    expect(seen.json.data).toMatchObject({ name: "Public cat", is_owner: false });
    expect((await fetch(`${app.url}/v1/item/${itemId}/file`)).status).toBe(200);
    expect((await api("PATCH", `/item/${itemId}`, { token: bob.idToken, body: { name: "x" } })).status).toBe(404);
    expect((await api("DELETE", `/item/${itemId}`, { token: bob.idToken })).status).toBe(404);

    const listed = await api("GET", "/items?q=Public%20cat&owner=");
    expect(listed.json.data.items.map((i: { id: string }) => i.id)).toContain(itemId);
  });

  it("answers 400 for a malformed id and 404 for an unknown one", async () => {
    const bad = await api("GET", "/item/123", { token: alice.idToken });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain("id must be a UUID");
    expect((await api("GET", "/item/00000000-0000-4000-8000-00000000abcd", { token: alice.idToken })).status).toBe(404);
    expect((await api("GET", "/upload/item/00000000-0000-4000-8000-00000000abcd?uploadType=shape", { token: alice.idToken })).status).toBe(400);
  });
});

describe("listing and deleting", () => {
  it("lists my items with owner=me, newest first, paginated by cursor", async () => {
    const carol = await createIdentity();
    const ids: string[] = [];
    for (const name of ["one", "two", "three"]) {
      const res = await api("POST", "/item", { token: carol.idToken, body: { model_type: "ply", upload_type: "model", name } });
      ids.push(res.json.data.item_id);
    }
    const first = await api("GET", "/items?owner=me&limit=2", { token: carol.idToken });
    expect(first.json.data.items.map((i: { name: string }) => i.name)).toEqual(["three", "two"]);
    const second = await api("GET", `/items?owner=me&limit=2&cursor=${first.json.data.next_cursor}`, { token: carol.idToken });
    expect(second.json.data.items.map((i: { name: string }) => i.name)).toEqual(["one"]);
    expect(second.json.data.next_cursor).toBeNull();
    const signedOut = await api("GET", "/items?owner=me");
    expect(signedOut.json.data.items).toEqual([]);
    expect((await api("GET", "/items?sort=oldest")).status).toBe(400);
  });

  it("deletes an item with its stored files", async () => {
    const { itemId, link } = await uploadModel(alice, catGlb, "glb");
    const { storage } = await import("~/storage/index.server");
    expect(await storage().stat(link.path)).not.toBeNull();
    const res = await api("DELETE", `/item/${itemId}`, { token: alice.idToken });
    expect(res.status).toBe(200);
    expect(await storage().stat(link.path)).toBeNull();
    expect((await api("GET", `/item/${itemId}`, { token: alice.idToken })).status).toBe(404);
  });

  it("lists the seeded categories", async () => {
    const res = await api("GET", "/categories");
    expect(res.status).toBe(200);
    expect(res.json.data.map((c: { slug: string }) => c.slug)).toContain("products");
  });

  it("answers unknown API paths and wrong methods in the API's shape", async () => {
    const missing = await api("GET", "/nothing-here");
    expect(missing.json).toEqual({ status: 404, error: "not_found", message: "No such API endpoint." });
    const wrong = await api("PUT", "/categories", { body: {} });
    expect(wrong.status).toBe(405);
    expect(wrong.json.error).toBe("method_not_allowed");
  });
});

describe("a model's details: tags, licence, search and the downloadable filter (issue 35 items 3 and 4)", () => {
  async function publicModel(owner: TestIdentity, details: Record<string, unknown>) {
    const { itemId } = await uploadModel(owner, catGlb, "glb");
    expect((await api("POST", `/item/${itemId}/file/size`, { token: owner.idToken, body: { size: catGlb.length } })).status).toBe(200);
    const saved = await api("PATCH", `/item/${itemId}`, { token: owner.idToken, body: { visibility: "public", ...details } });
    expect(saved.status).toBe(200);
    return { itemId, item: saved.json.data };
  }
  const ids = (res: { json: { data: { items: Array<{ id: string }> } } }) => res.json.data.items.map((i) => i.id);
  const word = `w${Date.now().toString(36)}`; // this run's own word, so other tests' models never match

  it("stores tags normalized and a licence, and shows them to everyone", async () => {
    const { itemId, item } = await publicModel(alice, { name: `Chair ${word}`, tags: ["Oak", "#oak", " Mid  Century "], license: "cc_by_sa" });
    expect(item).toMatchObject({ tags: ["oak", "mid century"], license: "cc_by_sa" });
    const seen = await api("GET", `/item/${itemId}`);
    expect(seen.json.data).toMatchObject({ tags: ["oak", "mid century"], license: "cc_by_sa", is_owner: false });
    // A new model starts with no tags, all rights reserved.
    const fresh = await api("POST", "/item", { token: alice.idToken, body: { model_type: "ply", upload_type: "model" } });
    expect((await api("GET", `/item/${fresh.json.data.item_id}`, { token: alice.idToken })).json.data).toMatchObject({ tags: [], license: "all_rights_reserved" });
  });

  it("refuses bad tags and unknown licences with the reason, and changes nothing", async () => {
    const { itemId } = await publicModel(alice, { tags: ["kept"] });
    const cases: Array<[unknown, string]> = [
      [{ tags: ["oak & ash"] }, "tags “oak & ash” may hold only letters, digits, spaces and hyphens"],
      [{ tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, "tags must be at most 10"],
      [{ tags: "oak" }, "tags Expected array, received string"],
      [{ license: "mit" }, "license must be one of all_rights_reserved, cc_by, cc_by_sa, cc_by_nc, cc0"],
    ];
    for (const [body, message] of cases) {
      const res = await api("PATCH", `/item/${itemId}`, { token: alice.idToken, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json).toMatchObject({ status: 400, error: "invalid_input" });
      expect(res.json.message).toContain(message);
    }
    expect((await api("GET", `/item/${itemId}`)).json.data).toMatchObject({ tags: ["kept"], license: "all_rights_reserved" });
  });

  it("search finds a word in the title or the description, or a whole tag, in any case", async () => {
    const byTitle = (await publicModel(alice, { name: `Lamp ${word}` })).itemId;
    const byDescription = (await publicModel(alice, { name: "Vase", description: `Made from ${word.toUpperCase()} clay` })).itemId;
    const byTag = (await publicModel(bob, { name: "Bowl", tags: [`${word} ware`] })).itemId;
    const elsewhere = (await publicModel(bob, { name: "Cup", tags: [`${word}ware`] })).itemId;
    const found = ids(await api("GET", `/items?q=${word}`));
    expect(found).toEqual(expect.arrayContaining([byTitle, byDescription]));
    expect(found).not.toContain(byTag); // a tag matches whole, not a part of it
    expect(ids(await api("GET", `/items?q=${encodeURIComponent(`#${word.toUpperCase()} Ware`)}`))).toEqual([byTag]);
    expect(ids(await api("GET", `/items?q=${word}ware`))).toEqual([elsewhere]);
  });

  it("filters by downloadable, for visitors and on the owner's own list", async () => {
    const open = (await publicModel(alice, { name: `Open ${word}`, allow_downloads: true, license: "cc0" })).itemId;
    const closed = (await publicModel(alice, { name: `Closed ${word}` })).itemId;
    expect(ids(await api("GET", `/items?q=${word}&downloadable=true`))).toEqual([open]);
    expect(ids(await api("GET", `/items?q=${word}&downloadable=false`))).toContain(closed);
    expect(ids(await api("GET", `/items?q=${word}&downloadable=false`))).not.toContain(open);
    expect(ids(await api("GET", `/items?owner=me&q=${word}&downloadable=true`, { token: alice.idToken }))).toEqual([open]);
    const bad = await api("GET", "/items?downloadable=yes");
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain("downloadable");
  });
});
