// The Builder's scenes (issue 6): a scene is an item of its own made of the owner's models with transforms,
// saved whole, viewed through its own visibility, with each part's file served through the scene.
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { XOR_KEY } from "../setup/config";
import { createIdentity, type TestIdentity } from "../setup/firebase-users";
import { serveAppForFile } from "../setup/served-app";
import { SHARED_DATA } from "../setup/shared-data";
import { sessionCookie } from "../setup/site-session";
import { uploadReadyModel, waitForAutomaticThumbnail, waitForDeliveredFormat } from "../setup/upload-model";

const DATA = SHARED_DATA;
const catGlb = readFileSync(path.join(DATA, "models/cat.glb"));
const guitarKsplat = readFileSync(path.join(DATA, "splats/guitar.ksplat"));

const app = serveAppForFile();
const api = app.api;
let alice: TestIdentity;
let bob: TestIdentity;
let cat: string;
let guitar: string;

const IDENTITY = { position: [0, 0, 0], quaternion: [0, 0, 0, 1], scale: [1, 1, 1] };

beforeAll(async () => {
  [alice, bob] = await Promise.all([createIdentity({ name: "Alice" }), createIdentity({ name: "Bob" })]);
  cat = await uploadReadyModel(api, alice, { bytes: catGlb, modelType: "glb", name: "cat" });
  guitar = await uploadReadyModel(api, alice, { bytes: guitarKsplat, modelType: "ksplat", name: "guitar" });
  // Parts show their model's thumbnail and what its viewers get: the automatic thumbnails and the splat's .sog copy
  // arrive first, so a part read twice compares like with like.
  await Promise.all([...[cat, guitar].map((id) => waitForAutomaticThumbnail(api, alice, id)), waitForDeliveredFormat(api, alice, guitar, "sog")]);
});

function unxor(bytes: ArrayBuffer): Buffer {
  const key = new TextEncoder().encode(XOR_KEY);
  return Buffer.from(new Uint8Array(bytes).map((b, i) => b ^ key[i % key.length]));
}

/** A scene as the Builder makes it: a draft until its first save (decision 046). */
async function newDraft(itemIds: string[], name = "Living room") {
  const created = await api("POST", "/scene", { token: alice.idToken, body: { name, item_ids: itemIds } });
  expect(created.status).toBe(200);
  return created.json.data.item_id as string;
}

/** A scene made and saved once as it is, as the Builder's Save does. */
async function newScene(itemIds: string[], name = "Living room") {
  const sceneId = await newDraft(itemIds, name);
  const parts = (await api("GET", `/item/${sceneId}/scene`, { token: alice.idToken })).json.data.parts;
  const body = { parts: parts.map((part: { id: string; item_id: string; transform: unknown }) => ({ id: part.id, item_id: part.item_id, transform: part.transform })) };
  expect((await api("PUT", `/item/${sceneId}/scene`, { token: alice.idToken, body })).status).toBe(200);
  return sceneId;
}

describe("making and saving a scene", () => {
  it("makes a private draft scene item of meshes and splats, its parts in order at the origin", async () => {
    const sceneId = await newDraft([cat, guitar]);
    const item = await api("GET", `/item/${sceneId}`, { token: alice.idToken });
    expect(item.json.data).toMatchObject({ kind: "scene", name: "Living room", status: "draft", visibility: "private", model_type: "ply", model_url: null });
    const scene = await api("GET", `/item/${sceneId}/scene`, { token: alice.idToken });
    expect(scene.status).toBe(200);
    expect(scene.json.data.parts.map((part: { item_id: string; name: string; transform: unknown }) => [part.item_id, part.name, part.transform])).toEqual([
      [cat, "cat", IDENTITY],
      [guitar, "guitar", IDENTITY],
    ]);
  });

  it("names a scene made without a name after its models, and an empty one untitled (issue 18 item 7)", async () => {
    const named = await api("POST", "/scene", { token: alice.idToken, body: { item_ids: [guitar, cat] } });
    expect(named.status).toBe(200);
    const item = await api("GET", `/item/${named.json.data.item_id}`, { token: alice.idToken });
    expect(item.json.data.name).toBe("Scene with guitar and cat");
    const empty = await api("POST", "/scene", { token: alice.idToken, body: {} });
    expect(empty.status).toBe(200);
    expect((await api("GET", `/item/${empty.json.data.item_id}`, { token: alice.idToken })).json.data.name).toBe("Untitled scene");
  });

  it("saves moves, turns, scales, order and removals together; a new part is created", async () => {
    const sceneId = await newScene([cat, guitar]);
    const before = (await api("GET", `/item/${sceneId}/scene`, { token: alice.idToken })).json.data.parts;
    const saved = await api("PUT", `/item/${sceneId}/scene`, {
      token: alice.idToken,
      body: {
        name: "Shop window",
        parts: [
          { id: before[1].id, item_id: guitar, transform: { position: [2, 0, -1], quaternion: [0, 2, 0, 2], scale: [0.5, 0.5, 0.5] } },
          { item_id: cat, transform: { position: [-1, 0, 0], quaternion: [0, 0, 0, 1], scale: [2, 2, 2] } },
        ],
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.json.data.item).toMatchObject({ name: "Shop window", kind: "scene" });
    const parts = saved.json.data.parts;
    expect(parts.map((part: { item_id: string }) => part.item_id)).toEqual([guitar, cat]);
    expect(parts[0].id).toBe(before[1].id); // kept
    expect(parts[1].id).not.toBe(before[0].id); // the first cat part was removed, a new one made
    expect(parts[0].transform.position).toEqual([2, 0, -1]);
    parts[0].transform.quaternion.forEach((value: number, i: number) => expect(value).toBeCloseTo([0, Math.SQRT1_2, 0, Math.SQRT1_2][i])); // normalised
    expect(parts[1].transform.scale).toEqual([2, 2, 2]);
    const reread = await api("GET", `/item/${sceneId}/scene`, { token: alice.idToken });
    expect(reread.json.data.parts).toEqual(parts);
  });

  it("appends models with POST …/scene/parts and answers their ids", async () => {
    const sceneId = await newScene([]);
    const item = await api("GET", `/item/${sceneId}`, { token: alice.idToken });
    expect(item.json.data.model_type).toBe("glb");
    const added = await api("POST", `/item/${sceneId}/scene/parts`, { token: alice.idToken, body: { item_ids: [cat, cat] } });
    expect(added.status).toBe(200);
    const scene = await api("GET", `/item/${sceneId}/scene`, { token: alice.idToken });
    expect(scene.json.data.parts.map((part: { id: string }) => part.id)).toEqual(added.json.data.part_ids);
    expect(scene.json.data.parts.map((part: { item_id: string }) => part.item_id)).toEqual([cat, cat]);
  });

  it("refuses bad transforms, other people's models, scenes in scenes and too many parts, changing nothing", async () => {
    const sceneId = await newScene([cat]);
    const [part] = (await api("GET", `/item/${sceneId}/scene`, { token: alice.idToken })).json.data.parts;
    const put = (parts: unknown) => api("PUT", `/item/${sceneId}/scene`, { token: alice.idToken, body: { parts } });

    const zeroScale = await put([{ id: part.id, item_id: cat, transform: { ...IDENTITY, scale: [0, 1, 1] } }]);
    expect(zeroScale.json).toMatchObject({ status: 400, error: "invalid_input", message: "parts.0.transform.scale.0 must be at least 0.001" });
    const noRotation = await put([{ item_id: cat, transform: { ...IDENTITY, quaternion: [0, 0, 0, 0] } }]);
    expect(noRotation.json).toMatchObject({ status: 400, message: "parts.0.transform.quaternion must not be all zeros" });

    const bobsModel = await uploadReadyModel(api, bob, { bytes: catGlb, modelType: "glb", name: "bob's cat" });
    const foreign = await put([{ item_id: bobsModel, transform: IDENTITY }]);
    expect(foreign.json).toMatchObject({ status: 404, error: "not_found" });

    const otherScene = await newScene([]);
    const nested = await put([{ item_id: otherScene, transform: IDENTITY }]);
    expect(nested.json).toMatchObject({ status: 400, error: "invalid_input" });
    expect(nested.json.message).toContain("scenes cannot be placed in scenes");

    const wrongPart = await put([{ id: part.id, item_id: guitar, transform: IDENTITY }]);
    expect(wrongPart.json).toMatchObject({ status: 400, error: "invalid_input" });

    const tooMany = await api("POST", `/item/${sceneId}/scene/parts`, { token: alice.idToken, body: { item_ids: Array(24).fill(cat) } });
    expect(tooMany.json).toMatchObject({ status: 400, message: "A scene holds at most 24 models (this would make 25)." });

    const scene = await api("GET", `/item/${sceneId}/scene`, { token: alice.idToken });
    expect(scene.json.data.parts).toEqual([part]);
  });

  it("is the owner's to change: others get 404, and a model is not a scene", async () => {
    const sceneId = await newScene([cat]);
    await api("PATCH", `/item/${sceneId}`, { token: alice.idToken, body: { visibility: "public" } });
    const byBob = await api("PUT", `/item/${sceneId}/scene`, { token: bob.idToken, body: { parts: [] } });
    expect(byBob.json).toMatchObject({ status: 404, error: "not_found" });
    const intoModel = await api("POST", `/item/${cat}/scene/parts`, { token: alice.idToken, body: { item_ids: [guitar] } });
    expect(intoModel.json).toMatchObject({ status: 400, error: "invalid_input" });
    const signedOut = await api("POST", "/scene", { body: { item_ids: [] } });
    expect(signedOut.status).toBe(401);
  });
});

describe("a scene never saved is a draft (issue 35 item 8, decision 046)", () => {
  it("stays off the dashboard and everyone else's eyes, shows as a draft in My scenes, and its first save makes it a ready item", async () => {
    const cookie = await sessionCookie(app.url, alice);
    const page = async (pathName: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${app.url}${pathName}`, { headers, redirect: "manual" });
      return { status: response.status, html: await response.text() };
    };
    const ids = (response: { json: { data: { items: Array<{ id: string }> } } }) => response.json.data.items.map((entry) => entry.id);

    // "Empty scene" in the Builder, then left without saving; the creator even made it public meanwhile.
    const sceneId = await newDraft([], "Unsaved shop window");
    expect((await api("PATCH", `/item/${sceneId}`, { token: alice.idToken, body: { visibility: "public" } })).status).toBe(200);
    const draft = (await api("GET", `/item/${sceneId}`, { token: alice.idToken })).json.data;
    expect(draft).toMatchObject({ status: "draft", visibility: "public" });
    const aliceId = draft.owner.id as string;

    // The dashboard does not list it (no "Ready" tile); asked for, the owner's drafts are there.
    const dashboard = await page("/dashboard", { Cookie: cookie });
    expect(dashboard.status).toBe(200);
    expect(dashboard.html).not.toContain("Unsaved shop window");
    expect(ids(await api("GET", "/items?owner=me", { token: alice.idToken }))).not.toContain(sceneId);
    const drafts = (await api("GET", "/items?owner=me&status=draft", { token: alice.idToken })).json.data.items as Array<{ id: string; status: string }>;
    expect(drafts.map((entry) => entry.id)).toContain(sceneId);
    expect(drafts.every((entry) => entry.status === "draft")).toBe(true);

    // The Builder's My scenes shows it as a draft to open, with no View link.
    const builder = await page("/builder", { Cookie: cookie });
    const card = builder.html.slice(builder.html.indexOf(`href="/builder/${sceneId}"`));
    expect(card.slice(0, card.indexOf("</li>"))).toContain("Draft · 0 models · not saved yet");
    expect(builder.html).not.toContain(`href="/item/${sceneId}"`);

    // Nobody else finds or opens it: not on Explore, the profile, the API, the page or the embed.
    expect(ids(await api("GET", "/items"))).not.toContain(sceneId);
    expect(ids(await api("GET", `/items?owner=${aliceId}`))).not.toContain(sceneId);
    expect((await api("GET", `/items?owner=${aliceId}&status=draft`)).json.data.items).toEqual([]);
    expect((await api("GET", `/item/${sceneId}`, { token: bob.idToken })).status).toBe(404);
    expect((await api("GET", `/item/${sceneId}/scene`)).status).toBe(404);
    expect((await page(`/item/${sceneId}`)).status).toBe(404);
    expect((await page(`/embed/${sceneId}`)).html).toContain("not available");

    // The first save (even with nothing changed) makes it a scene like any model: ready, listed, public.
    const saved = await api("PUT", `/item/${sceneId}/scene`, { token: alice.idToken, body: { parts: [{ item_id: cat, transform: IDENTITY }] } });
    expect(saved.status).toBe(200);
    expect(saved.json.data.item).toMatchObject({ status: "ready", visibility: "public" });
    expect(ids(await api("GET", "/items?owner=me", { token: alice.idToken }))).toContain(sceneId);
    expect(ids(await api("GET", "/items?owner=me&status=draft", { token: alice.idToken }))).not.toContain(sceneId);
    expect(ids(await api("GET", "/items"))).toContain(sceneId);
    expect((await api("GET", `/item/${sceneId}`, { token: bob.idToken })).json.data).toMatchObject({ status: "ready", kind: "scene" });
    expect((await page("/builder", { Cookie: cookie })).html).toContain(`href="/item/${sceneId}"`);
    expect((await page("/dashboard", { Cookie: cookie })).html).toContain("Unsaved shop window");
  });
});

describe("who sees a scene", () => {
  it("follows the scene's visibility: its parts' files come through the scene, even of private models", async () => {
    const sceneId = await newScene([cat, guitar]);
    const parts = (await api("GET", `/item/${sceneId}/scene`, { token: alice.idToken })).json.data.parts;
    const partUrl = `${app.url}${parts[0].url}`;
    expect(parts[0].url).toBe(`/v1/item/${sceneId}/scene/${parts[0].id}/file`);

    // Private scene: nobody else gets it or its files.
    expect((await api("GET", `/item/${sceneId}/scene`, { token: bob.idToken })).status).toBe(404);
    expect((await fetch(partUrl)).status).toBe(404);

    await api("PATCH", `/item/${sceneId}`, { token: alice.idToken, body: { visibility: "unlisted" } });
    const anonymous = await fetch(partUrl);
    expect(anonymous.status).toBe(200);
    expect(unxor(await anonymous.arrayBuffer()).equals(catGlb)).toBe(true);
    // The model itself stays private.
    expect((await fetch(`${app.url}/v1/item/${cat}/file`)).status).toBe(404);
    // A second view downloads nothing new.
    const again = await fetch(partUrl, { headers: { "If-None-Match": anonymous.headers.get("etag")! } });
    expect(again.status).toBe(304);

    const config = await api("GET", `/item/${sceneId}/viewer`);
    expect(config.status).toBe(200);
    expect(config.json.data.item.kind).toBe("scene");
    expect(config.json.data.scene_parts.map((part: { url: string }) => part.url)).toEqual(parts.map((part: { url: string }) => new URL(part.url, config.json.data.page_url).toString()));

    const embed = await fetch(`${app.url}/embed/${sceneId}`);
    expect(embed.status).toBe(200);
    expect(await embed.text()).not.toContain("not available");
  });

  it("hides a part an admin unpublished from everyone but the owner; a deleted model leaves its scenes", async () => {
    const spare = await uploadReadyModel(api, alice, { bytes: catGlb, modelType: "glb", name: "spare cat" });
    const sceneId = await newScene([spare, guitar]);
    await api("PATCH", `/item/${sceneId}`, { token: alice.idToken, body: { visibility: "public" } });
    const { db } = await import("~/db.server");
    await db().item.update({ where: { id: spare }, data: { unpublishedAt: new Date(), moderationReason: "test" } });
    const forOthers = await api("GET", `/item/${sceneId}/scene`, { token: bob.idToken });
    expect(forOthers.json.data.parts.map((part: { item_id: string }) => part.item_id)).toEqual([guitar]);
    const forOwner = await api("GET", `/item/${sceneId}/scene`, { token: alice.idToken });
    expect(forOwner.json.data.parts.map((part: { item_id: string }) => part.item_id)).toEqual([spare, guitar]);

    expect((await api("DELETE", `/item/${spare}`, { token: alice.idToken })).status).toBe(200);
    const afterDelete = await api("GET", `/item/${sceneId}/scene`, { token: alice.idToken });
    expect(afterDelete.json.data.parts.map((part: { item_id: string }) => part.item_id)).toEqual([guitar]);
  });
});
