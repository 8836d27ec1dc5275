// Issue 17 items 4–6: text, cursors and references a client gets wrong are clear 400s in the API's
// shape (pages: a plain 400), never a 500.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../setup/api";
import { createIdentity, type TestIdentity } from "../setup/firebase-users";
import { startTestServer } from "../setup/test-server";

let server: Awaited<ReturnType<typeof startTestServer>>;
let api: ReturnType<typeof apiClient>;
let alice: TestIdentity;

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

function expectInvalidInput(res: { status: number; json: any }) {
  expect(res.status).toBe(400);
  expect(res.json).toMatchObject({ status: 400, error: "invalid_input" });
  expect(typeof res.json.message).toBe("string");
}

beforeAll(async () => {
  server = await startTestServer();
  api = apiClient(server.url);
  alice = await createIdentity({ name: "Alice" });
});

afterAll(async () => {
  await server?.close();
});

describe("NUL and lone surrogates (item 4)", () => {
  it("refuses them in JSON bodies, signed out or in", async () => {
    expectInvalidInput(await api("POST", "/contact", { body: { name: "a\u0000", email: "a@example.com", message: "hello there" } }));
    const created = await api("POST", "/item", { token: alice.idToken, body: { model_type: "glb", upload_type: "model" } });
    expect(created.status).toBe(200);
    const itemId = created.json.data.item_id;
    expectInvalidInput(await api("PATCH", `/item/${itemId}`, { token: alice.idToken, body: { name: "ok\ud800" } }));
    expectInvalidInput(await api("PATCH", `/item/${itemId}`, { token: alice.idToken, body: { description: "a\u0000b" } }));
    const item = await api("GET", `/item/${itemId}`, { token: alice.idToken });
    expect(item.status).toBe(200);
    expect(item.json.data.name).not.toContain("\u0000");
  });

  it("refuses a NUL in an API query and in a page's query", async () => {
    expectInvalidInput(await api("GET", "/items?q=a%00b"));
    expectInvalidInput(await api("GET", "/items?category=%00"));
    for (const page of ["/?q=%00", "/?category=%00"]) {
      const res = await fetch(`${server.url}${page}`);
      expect(res.status, page).toBe(400);
    }
  });

  it("still takes emoji and accents", async () => {
    const res = await api("GET", `/items?q=${encodeURIComponent("Café 🐱")}`);
    expect(res.status).toBe(200);
  });
});

describe("wrong pagination cursors (item 5)", () => {
  const id = "3f0c2a4e-1b2c-4d5e-8f90-123456789abc";
  const wrong = [
    ["", b64({ v: "2020-01-01T00:00:00.000Z", i: "x" })],
    ["", b64({ v: "not a date", i: id })],
    ["&sort=most_viewed", b64({ v: "many", i: id })],
  ] as const;

  it("/v1/items answers 400 in the API shape", async () => {
    for (const [sort, cursor] of wrong) expectInvalidInput(await api("GET", `/items?cursor=${cursor}${sort}`));
  });

  it("/ and /u/{id} answer a 400 page", async () => {
    const me = await api("GET", "/user", { token: alice.idToken });
    const userId = me.json.data.user.id;
    for (const [sort, cursor] of wrong) {
      expect((await fetch(`${server.url}/?cursor=${cursor}${sort}`)).status).toBe(400);
      expect((await fetch(`${server.url}/u/${userId}?cursor=${cursor}`)).status).toBe(400);
    }
  });

  it("the cursors the list gives out still page", async () => {
    const first = await api("GET", "/items?limit=1");
    expect(first.status).toBe(200);
    if (first.json.data.next_cursor) expect((await api("GET", `/items?limit=1&cursor=${first.json.data.next_cursor}`)).status).toBe(200);
  });
});

describe("unknown category (item 6)", () => {
  it("PATCH /v1/item/{own id} with an unknown category_id is a 400, and the item is unchanged", async () => {
    const created = await api("POST", "/item", { token: alice.idToken, body: { model_type: "glb", upload_type: "model" } });
    const itemId = created.json.data.item_id;
    const res = await api("PATCH", `/item/${itemId}`, {
      token: alice.idToken,
      body: { category_id: "3f0c2a4e-1b2c-4d5e-8f90-123456789abc", name: "renamed" },
    });
    expectInvalidInput(res);
    expect(res.json.message).toMatch(/category_id/);
    const item = await api("GET", `/item/${itemId}`, { token: alice.idToken });
    expect(item.status).toBe(200);
    expect(item.json.data).toMatchObject({ category_id: null });
    expect(item.json.data.name).not.toBe("renamed");
  });
});

describe("signed-in calls leave the user row alone (item 13)", () => {
  it("a second call does not rewrite the row (the avatar URL's version stays)", async () => {
    const { db } = await import("~/db.server");
    const me = await api("GET", "/user", { token: alice.idToken });
    const before = await db().user.findUniqueOrThrow({ where: { id: me.json.data.user.id } });
    await api("GET", "/user", { token: alice.idToken });
    await api("GET", "/items?owner=me", { token: alice.idToken });
    const after = await db().user.findUniqueOrThrow({ where: { id: me.json.data.user.id } });
    expect(after.updatedAt.getTime()).toBe(before.updatedAt.getTime());
  });
});
