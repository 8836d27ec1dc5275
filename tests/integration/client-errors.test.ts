// Issue 17 items 4–8 and 13: text, cursors and references a client gets wrong are clear 400s in the API's
// shape (pages: a plain 400), a wrong method is a 405, a JSON body over the limit a 413 the client receives —
// never a 500 or a reset connection.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createIdentity, type TestIdentity } from "../setup/firebase-users";
import { rawRequest } from "../setup/raw-put";
import { serveAppForFile } from "../setup/served-app";

const app = serveAppForFile();
const api = app.api;
let alice: TestIdentity;

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

function expectInvalidInput(res: { status: number; json: any }) {
  expect(res.status).toBe(400);
  expect(res.json).toMatchObject({ status: 400, error: "invalid_input" });
  expect(typeof res.json.message).toBe("string");
}

beforeAll(async () => {
  alice = await createIdentity({ name: "Alice" });
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
      const res = await fetch(`${app.url}${page}`);
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
      expect((await fetch(`${app.url}/?cursor=${cursor}${sort}`)).status).toBe(400);
      expect((await fetch(`${app.url}/u/${userId}?cursor=${cursor}`)).status).toBe(400);
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

  it("a new identity's first calls, all at once, each succeed and make one row", async () => {
    const { db } = await import("~/db.server");
    const newcomer = await createIdentity({ name: "Newcomer" });
    const answers = await Promise.all(Array.from({ length: 6 }, () => api("GET", "/user", { token: newcomer.idToken })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.json.data.user.id)).size).toBe(1);
    expect(await db().user.count({ where: { id: answers[0].json.data.user.id } })).toBe(1);
  });
});

describe("wrong methods (item 7)", () => {
  it("every resource route serves both sides: the one it does not use answers 405", () => {
    // Remix answers a route without a loader or an action with its own 400/405 error (logged as ours):
    // each resource route (no page component) exports both, the unused one from methodNotAllowed.
    const dir = path.resolve(import.meta.dirname, "../../app/routes");
    const lacking = readdirSync(dir)
      .filter((name) => /\.tsx?$/.test(name))
      .filter((name) => {
        const source = readFileSync(path.join(dir, name), "utf8");
        if (/^export default/m.test(source)) return false;
        const exports = (what: string) => new RegExp(`^export (async )?(function|const) ${what}\\b`, "m").test(source);
        return !exports("loader") || !exports("action");
      });
    expect(lacking).toEqual([]);
  });

  it("answers 405 with Allow, in the API's shape, on webhooks, probes, feeds and pages", async () => {
    const cases: Array<[string, string, string]> = [
      ["GET", "/webhooks/app/uninstalled", "POST"],
      ["GET", "/webhooks/shop/redact", "POST"],
      ["POST", "/healthz", "GET"],
      ["DELETE", "/oembed?url=x", "GET"],
      ["PUT", "/avatars/00000000-0000-4000-8000-000000000000", "GET"],
      ["POST", "/no-such-page", "GET"],
    ];
    for (const [method, where, allow] of cases) {
      const res = await fetch(`${app.url}${where}`, { method, redirect: "manual" });
      expect([where, res.status]).toEqual([where, 405]);
      expect(res.headers.get("allow")).toBe(allow);
      expect(await res.json()).toMatchObject({ status: 405, error: "method_not_allowed" });
    }
    // A page without a form handler: Remix's own 405, not a 500.
    expect((await fetch(`${app.url}/pricing`, { method: "POST", redirect: "manual" })).status).toBe(405);
  });
});

describe("a JSON body over the limit (item 8)", () => {
  const big = new TextEncoder().encode(JSON.stringify({ name: "A", email: "a@example.com", message: "x".repeat(300 * 1024) }));

  it("sent chunked (no length up front), the client receives the 413 in the API shape", async () => {
    const answer = await rawRequest("POST", `${app.url}/v1/contact`, big, { chunked: true, headers: { "Content-Type": "application/json" } });
    expect(answer).not.toBe("reset");
    const { status, text } = answer as { status: number; text: string };
    expect(status).toBe(413);
    expect(JSON.parse(text)).toMatchObject({ status: 413, error: "payload_too_large" });
  });

  it("with its length declared, the same", async () => {
    const answer = await rawRequest("POST", `${app.url}/v1/contact`, big, { headers: { "Content-Type": "application/json" } });
    expect(answer).not.toBe("reset");
    expect((answer as { status: number }).status).toBe(413);
  });
});
