import { readFileSync } from "node:fs";
import path from "node:path";
import { PNG } from "pngjs";
import { beforeAll, describe, expect, it } from "vitest";
import { createIdentity, type TestIdentity } from "../setup/firebase-users";
import { serveAppForFile } from "../setup/served-app";
import { SHARED_DATA } from "../setup/shared-data";

// Annotations and tours (issue 6): the /v1 annotation endpoints over real HTTP, a real database and
// real storage, with real emulator accounts. The free plan allows 5 annotations per model (prisma/seed-data.ts).
const DATA = SHARED_DATA;
const catGlb = readFileSync(path.join(DATA, "models/cat.glb"));
const FREE_QUOTA = 5;

const app = serveAppForFile();
const api = app.api;
let alice: TestIdentity;
let bob: TestIdentity;

function pngBytes(): Buffer {
  const png = new PNG({ width: 4, height: 4 });
  png.data.fill(200);
  return PNG.sync.write(png);
}

async function createModel(owner: TestIdentity, visibility: "public" | "private" = "private") {
  const created = await api("POST", "/item", { token: owner.idToken, body: { model_type: "glb", upload_type: "model", name: "Cat" } });
  const itemId: string = created.json.data.item_id;
  const link = await api("GET", `/upload/item/${itemId}?uploadType=model`, { token: owner.idToken });
  expect((await fetch(link.json.data.url, { method: "PUT", body: new Uint8Array(catGlb) })).ok).toBe(true);
  expect((await api("POST", `/item/${itemId}/file/size`, { token: owner.idToken, body: { size: catGlb.length } })).status).toBe(200);
  if (visibility !== "private") expect((await api("PATCH", `/item/${itemId}`, { token: owner.idToken, body: { visibility } })).status).toBe(200);
  return itemId;
}

const annotation = (title: string, extra: Record<string, unknown> = {}) => ({ title, position: [0.1, 0.2, 0.3], normal: [0, 0, 1], ...extra });

async function listTitles(itemId: string, token?: string) {
  const res = await api("GET", `/item/${itemId}/annotations`, { token });
  expect(res.status).toBe(200);
  return (res.json.data as Array<{ title: string }>).map((a) => a.title);
}

beforeAll(async () => {
  [alice, bob] = await Promise.all([createIdentity({ name: "Alice" }), createIdentity({ name: "Bob" })]);
  // Signed in once, as the site does, before the tests send several requests at a time.
  for (const who of [alice, bob]) expect((await api("GET", "/user", { token: who.idToken })).status).toBe(200);
});

describe("annotation CRUD", () => {
  it("creates, lists, updates and deletes an annotation of the owner's model", async () => {
    const itemId = await createModel(alice);
    const camera = { position: [0, 1, 4], target: [0, 0.5, 0] };
    const created = await api("POST", `/item/${itemId}/annotations`, {
      token: alice.idToken,
      body: annotation("Left ear", { body: "<p>Soft <strong>fur</strong></p>", camera }),
    });
    expect(created.status).toBe(200);
    expect(created.json.data).toMatchObject({
      title: "Left ear",
      body: "<p>Soft <strong>fur</strong></p>",
      position: [0.1, 0.2, 0.3],
      normal: [0, 0, 1],
      camera,
      image_url: null,
      order: 0,
    });
    const id: string = created.json.data.id;

    const listed = await api("GET", `/item/${itemId}/annotations`, { token: alice.idToken });
    expect(listed.json.data).toEqual([created.json.data]);

    const updated = await api("PATCH", `/item/${itemId}/annotations/${id}`, {
      token: alice.idToken,
      body: { title: "Right ear", camera: null, position: [1, 2, 3] },
    });
    expect(updated.status).toBe(200);
    expect(updated.json.data).toMatchObject({ id, title: "Right ear", camera: null, position: [1, 2, 3], body: "<p>Soft <strong>fur</strong></p>" });

    expect((await api("DELETE", `/item/${itemId}/annotations/${id}`, { token: alice.idToken })).status).toBe(200);
    expect(await listTitles(itemId, alice.idToken)).toEqual([]);
    const again = await api("DELETE", `/item/${itemId}/annotations/${id}`, { token: alice.idToken });
    expect(again.status).toBe(404);
    expect(again.json).toEqual({ status: 404, error: "not_found", message: "Annotation not found." });
  });

  it("refuses invalid input with a clear message and stores nothing", async () => {
    const itemId = await createModel(alice);
    const cases = [
      { body: { title: "", position: [0, 0, 0] }, message: /title must not be empty/ },
      { body: { title: "A", position: [0, 0] }, message: /position/ },
      { body: { title: "A", position: [0, 0, "x"] }, message: /position/ },
      { body: { title: "A", position: [0, 0, 0], camera: { position: [1, 1, 1], target: [1, 1, 1] } }, message: /position and target must differ/ },
      { body: { title: "A", position: [0, 0, 0], colour: "red" }, message: /colour|Unrecognized/ },
      { body: { title: "x".repeat(121), position: [0, 0, 0] }, message: /at most 120 characters/ },
    ];
    for (const { body, message } of cases) {
      const res = await api("POST", `/item/${itemId}/annotations`, { token: alice.idToken, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error).toBe("invalid_input");
      expect(res.json.message).toMatch(message);
    }
    expect(await listTitles(itemId, alice.idToken)).toEqual([]);
    expect((await api("POST", `/item/${itemId}/annotations`, { body: annotation("Anonymous") })).status).toBe(401);
  });

  it("sanitises the rich-text body on create and update: no scripts, handlers or unsafe links", async () => {
    const itemId = await createModel(alice);
    const evil =
      '<p onclick="steal()">Hi<script>alert(1)</script><img src=x onerror="alert(2)"><a href="javascript:alert(3)">bad</a> ' +
      '<a href="https://example.com/ok">good</a><iframe src="https://evil.example"></iframe><em style="color:red">em</em></p>';
    const created = await api("POST", `/item/${itemId}/annotations`, { token: alice.idToken, body: annotation("XSS", { body: evil }) });
    expect(created.status).toBe(200);
    const expected = '<p>Hi<a>bad</a> <a href="https://example.com/ok">good</a><em>em</em></p>';
    expect(created.json.data.body).toBe(expected);
    const listed = await api("GET", `/item/${itemId}/annotations`, { token: alice.idToken });
    expect(listed.json.data[0].body).toBe(expected);

    const updated = await api("PATCH", `/item/${itemId}/annotations/${created.json.data.id}`, {
      token: alice.idToken,
      body: { body: '<ul><li>one</li><li><svg onload="alert(1)"></svg>two</li></ul><a href="//evil.example">x</a>' },
    });
    expect(updated.json.data.body).toBe("<ul><li>one</li><li>two</li></ul><a>x</a>");
  });
});

describe("reordering", () => {
  it("sets the tour order in one go and refuses an incomplete, unknown or repeated list without changing anything", async () => {
    const itemId = await createModel(alice);
    const ids: string[] = [];
    for (const title of ["One", "Two", "Three"]) {
      const res = await api("POST", `/item/${itemId}/annotations`, { token: alice.idToken, body: annotation(title) });
      ids.push(res.json.data.id);
    }
    const reordered = await api("PUT", `/item/${itemId}/annotations/reorder`, { token: alice.idToken, body: { annotationIds: [ids[2], ids[0], ids[1]] } });
    expect(reordered.status).toBe(200);
    expect(reordered.json.data.map((a: { title: string; order: number }) => [a.title, a.order])).toEqual([
      ["Three", 0],
      ["One", 1],
      ["Two", 2],
    ]);
    expect(await listTitles(itemId, alice.idToken)).toEqual(["Three", "One", "Two"]);

    const foreign = "00000000-0000-4000-8000-000000000000";
    const bad = [
      { annotationIds: [ids[0], ids[1]], message: /missing/ },
      { annotationIds: [ids[0], ids[1], ids[2], foreign], message: /unknown ids/ },
      { annotationIds: [ids[0], ids[0], ids[1], ids[2]], message: /more than once/ },
    ];
    for (const { annotationIds, message } of bad) {
      const res = await api("PUT", `/item/${itemId}/annotations/reorder`, { token: alice.idToken, body: { annotationIds } });
      expect(res.status).toBe(400);
      expect(res.json.message).toMatch(message);
    }
    expect(await listTitles(itemId, alice.idToken)).toEqual(["Three", "One", "Two"]);

    // A new annotation joins the end of the tour.
    await api("POST", `/item/${itemId}/annotations`, { token: alice.idToken, body: annotation("Four") });
    expect(await listTitles(itemId, alice.idToken)).toEqual(["Three", "One", "Two", "Four"]);
  });
});

describe("the plan's annotation quota", () => {
  it(`stops at ${FREE_QUOTA} per model on the free plan, with the quota in the message, even for parallel requests`, async () => {
    const itemId = await createModel(alice);
    for (let i = 0; i < FREE_QUOTA - 1; i++) {
      expect((await api("POST", `/item/${itemId}/annotations`, { token: alice.idToken, body: annotation(`A${i}`) })).status).toBe(200);
    }
    const racing = await Promise.all(
      Array.from({ length: 3 }, (_, i) => api("POST", `/item/${itemId}/annotations`, { token: alice.idToken, body: annotation(`Race ${i}`) })),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([200, 402, 402]);
    const refused = racing.find((r) => r.status === 402)!;
    expect(refused.json).toEqual({
      status: 402,
      error: "quota_exceeded",
      message: `This model has all the annotations your plan allows (${FREE_QUOTA} per model). Delete one or upgrade your plan to add more.`,
    });
    expect(await listTitles(itemId, alice.idToken)).toHaveLength(FREE_QUOTA);

    // The quota is per model: another model starts from zero.
    const other = await createModel(alice);
    expect((await api("POST", `/item/${other}/annotations`, { token: alice.idToken, body: annotation("Elsewhere") })).status).toBe(200);

    // Deleting one frees a place.
    const first = (await api("GET", `/item/${itemId}/annotations`, { token: alice.idToken })).json.data[0].id;
    await api("DELETE", `/item/${itemId}/annotations/${first}`, { token: alice.idToken });
    expect((await api("POST", `/item/${itemId}/annotations`, { token: alice.idToken, body: annotation("Back in") })).status).toBe(200);
  });

  it("follows the plan in force: a bigger plan allows more", async () => {
    const carol = await createIdentity({ name: "Carol" });
    const me = await api("GET", "/user", { token: carol.idToken });
    const itemId = await createModel(carol);
    for (let i = 0; i < FREE_QUOTA; i++) await api("POST", `/item/${itemId}/annotations`, { token: carol.idToken, body: annotation(`C${i}`) });
    expect((await api("POST", `/item/${itemId}/annotations`, { token: carol.idToken, body: annotation("Over") })).status).toBe(402);

    const { db } = await import("~/db.server");
    const starter = await db().plan.findUniqueOrThrow({ where: { planType: "starter" } });
    await db().subscription.update({ where: { userId: me.json.data.user.id }, data: { planId: starter.id } });
    expect((await api("POST", `/item/${itemId}/annotations`, { token: carol.idToken, body: annotation("Now allowed") })).status).toBe(200);
  });
});

describe("scoping", () => {
  it("answers 404 to anyone but the owner for every write, and for reads of a private model", async () => {
    const itemId = await createModel(alice);
    const id = (await api("POST", `/item/${itemId}/annotations`, { token: alice.idToken, body: annotation("Mine") })).json.data.id;
    const attempts = [
      api("GET", `/item/${itemId}/annotations`, { token: bob.idToken }),
      api("GET", `/item/${itemId}/annotations`),
      api("POST", `/item/${itemId}/annotations`, { token: bob.idToken, body: annotation("Theirs") }),
      api("PATCH", `/item/${itemId}/annotations/${id}`, { token: bob.idToken, body: { title: "Hijacked" } }),
      api("DELETE", `/item/${itemId}/annotations/${id}`, { token: bob.idToken }),
      api("PUT", `/item/${itemId}/annotations/reorder`, { token: bob.idToken, body: { annotationIds: [id] } }),
      api("GET", `/upload/item/${itemId}/annotation/${id}?filename=a.png`, { token: bob.idToken }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ status: 404, error: "not_found", message: "Item not found." });
    }
    expect(await listTitles(itemId, alice.idToken)).toEqual(["Mine"]);
  });

  it("lets anyone read the annotations of a public model, but only its owner change them", async () => {
    const itemId = await createModel(alice, "public");
    const id = (await api("POST", `/item/${itemId}/annotations`, { token: alice.idToken, body: annotation("Public note") })).json.data.id;
    expect(await listTitles(itemId)).toEqual(["Public note"]);
    expect(await listTitles(itemId, bob.idToken)).toEqual(["Public note"]);
    expect((await api("PATCH", `/item/${itemId}/annotations/${id}`, { token: bob.idToken, body: { title: "Nope" } })).status).toBe(404);
  });

  it("does not let an annotation id of one model be used through another", async () => {
    const first = await createModel(alice);
    const second = await createModel(alice);
    const id = (await api("POST", `/item/${first}/annotations`, { token: alice.idToken, body: annotation("First's") })).json.data.id;
    const res = await api("PATCH", `/item/${second}/annotations/${id}`, { token: alice.idToken, body: { title: "Moved" } });
    expect(res.status).toBe(404);
    expect(res.json.message).toBe("Annotation not found.");
  });
});

describe("annotation pictures (GET /v1/upload/item/{id}/annotation/{annotationId}?filename=)", () => {
  it("gives a signed upload link; the uploaded picture is checked, attached, served to viewers and replaced", async () => {
    const itemId = await createModel(alice, "public");
    const id = (await api("POST", `/item/${itemId}/annotations`, { token: alice.idToken, body: annotation("With picture") })).json.data.id;

    const link = await api("GET", `/upload/item/${itemId}/annotation/${id}?filename=photo.PNG`, { token: alice.idToken });
    expect(link.status).toBe(200);
    expect(link.json.data.path).toMatch(new RegExp(`^items/${itemId}/annotations/${id}/[0-9a-f-]{36}\\.png$`));
    expect(link.json.data.url).toMatch(/^http/);
    const png = pngBytes();
    expect((await fetch(link.json.data.url, { method: "PUT", body: new Uint8Array(png) })).ok).toBe(true);

    const attached = await api("PATCH", `/item/${itemId}/annotations/${id}`, { token: alice.idToken, body: { image_path: link.json.data.path } });
    expect(attached.status).toBe(200);
    const imageUrl: string = attached.json.data.image_url;
    expect(imageUrl).toMatch(new RegExp(`^/v1/item/${itemId}/annotations/${id}/image\\?v=`));
    const served = await fetch(`${app.url}${imageUrl}`); // a signed-out visitor of a public model
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);

    // A file that is not a picture is refused (and removed); the attached one stays.
    const second = await api("GET", `/upload/item/${itemId}/annotation/${id}?filename=fake.jpg`, { token: alice.idToken });
    await fetch(second.json.data.url, { method: "PUT", body: "not an image at all" });
    const refused = await api("PATCH", `/item/${itemId}/annotations/${id}`, { token: alice.idToken, body: { image_path: second.json.data.path } });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ error: "invalid_file", message: "The file is not a JPEG, PNG, WebP or GIF image." });
    expect((await api("GET", `/item/${itemId}/annotations`)).json.data[0].image_url).toBe(imageUrl);

    // Removing it: no picture any more.
    const removed = await api("PATCH", `/item/${itemId}/annotations/${id}`, { token: alice.idToken, body: { image_path: null } });
    expect(removed.json.data.image_url).toBeNull();
    expect((await fetch(`${app.url}${imageUrl}`)).status).toBe(404);
  });

  it("refuses other file types, paths outside the annotation's folder, and unknown annotations", async () => {
    const itemId = await createModel(alice);
    const a = (await api("POST", `/item/${itemId}/annotations`, { token: alice.idToken, body: annotation("A") })).json.data.id;
    const b = (await api("POST", `/item/${itemId}/annotations`, { token: alice.idToken, body: annotation("B") })).json.data.id;

    const exe = await api("GET", `/upload/item/${itemId}/annotation/${a}?filename=run.exe`, { token: alice.idToken });
    expect(exe.status).toBe(400);
    expect(exe.json.message).toMatch(/filename must end in .jpg, .jpeg, .png, .webp or .gif/);
    expect((await api("GET", `/upload/item/${itemId}/annotation/${a}`, { token: alice.idToken })).status).toBe(400);

    const forB = await api("GET", `/upload/item/${itemId}/annotation/${b}?filename=b.png`, { token: alice.idToken });
    await fetch(forB.json.data.url, { method: "PUT", body: new Uint8Array(pngBytes()) });
    const crossed = await api("PATCH", `/item/${itemId}/annotations/${a}`, { token: alice.idToken, body: { image_path: forB.json.data.path } });
    expect(crossed.status).toBe(400);
    expect(crossed.json.message).toBe("path is not an upload link of yours");

    const unknown = await api("GET", `/upload/item/${itemId}/annotation/00000000-0000-4000-8000-000000000000?filename=a.png`, { token: alice.idToken });
    expect(unknown.status).toBe(404);
    expect(unknown.json.message).toBe("Annotation not found.");

    // Too big for the signed link (2 MB): refused by the storage endpoint itself.
    const big = await api("GET", `/upload/item/${itemId}/annotation/${a}?filename=big.png`, { token: alice.idToken });
    const put = await fetch(big.json.data.url, { method: "PUT", body: new Uint8Array(2 * 1024 * 1024 + 1) });
    expect(put.ok).toBe(false);
  });
});
