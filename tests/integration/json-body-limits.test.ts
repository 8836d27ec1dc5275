// JSON bodies are held to one size limit and one nesting limit (64) before anything parses them
// (docs/decisions/039): a body nested 20,000 deep is a 400 in the API's shape on every route that reads
// JSON — the /v1 API, the site's /session, Stripe's and Shopify's webhooks — never a 500, and the server
// keeps answering. Everything through the real built server over HTTP.
import { beforeAll, describe, expect, it } from "vitest";
import { createIdentity, type TestIdentity } from "../setup/firebase-users";
import { serveAppForFile } from "../setup/served-app";

const app = serveAppForFile();
const api = app.api;
let alice: TestIdentity;
let itemId: string;

const arrays = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
const objects = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
/** 20,000 levels of arrays (40 kB); objects take 6 bytes a level, so 10,000 of them stay under the 64 KiB limit. */
const DEEP_BODIES = { arrays: arrays(20_000), objects: objects(10_000) };

beforeAll(async () => {
  alice = await createIdentity({ name: "Alice" });
  const created = await api("POST", "/item", { token: alice.idToken, body: { model_type: "glb", upload_type: "model" } });
  expect(created.status).toBe(200);
  itemId = created.json.data.item_id;
});

/** POSTs (or another method) raw text as JSON to any path of the server; the status and the parsed answer. */
async function sendJson(pathName: string, text: string, { method = "POST", token, headers = {} }: { method?: string; token?: string; headers?: Record<string, string> } = {}) {
  const response = await fetch(`${app.url}${pathName}`, {
    method,
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
    body: text,
  });
  const answer = await response.text();
  let json: any = null;
  try {
    json = JSON.parse(answer);
  } catch {
    json = null;
  }
  return { status: response.status, json, text: answer };
}

function expectTooDeep(answer: { status: number; json: any; text: string }, what: string) {
  expect(answer.status, `${what}: ${answer.text.slice(0, 200)}`).toBe(400);
  expect(answer.json, what).toMatchObject({ status: 400, error: "json_too_deep" });
  expect(answer.json.message, what).toMatch(/more than 64 levels deep/);
}

describe("bodies nested deeper than 64 levels", () => {
  it("POST /v1/item: 400 json_too_deep for 20,000 levels of arrays or 10,000 of objects, not a 500", async () => {
    for (const [shape, text] of Object.entries(DEEP_BODIES)) {
      expectTooDeep(await sendJson("/v1/item", text, { token: alice.idToken }), shape);
      // Deep inside a field the route reads.
      expectTooDeep(await sendJson("/v1/item", `{"model_type":"glb","upload_type":"model","name":${text}}`, { token: alice.idToken }), `name: ${shape}`);
    }
    // The server is fine afterwards.
    expect((await api("POST", "/item", { token: alice.idToken, body: { model_type: "glb", upload_type: "model" } })).status).toBe(200);
  });

  it("draws the line at 64: a body 64 deep reaches the route's own checks, 65 deep does not", async () => {
    // An object holding 63 arrays is 64 levels: the route's schema answers (name must be text).
    const at = await sendJson("/v1/item", `{"model_type":"glb","upload_type":"model","name":${arrays(63)}}`, { token: alice.idToken });
    expect(at.status).toBe(400);
    expect(at.json).toMatchObject({ status: 400, error: "invalid_input" });
    expect(at.json.message).toMatch(/^name /);
    expectTooDeep(await sendJson("/v1/item", `{"model_type":"glb","upload_type":"model","name":${arrays(64)}}`, { token: alice.idToken }), "65 levels");
    // Brackets inside a string are text, not nesting.
    const named = await api("POST", "/item", { token: alice.idToken, body: { model_type: "glb", upload_type: "model", name: "[".repeat(100) } });
    expect(named.status).toBe(200);
  });

  it("on other API routes, signed in or not: PATCH settings, PATCH item, POST contact", async () => {
    for (const [shape, text] of Object.entries(DEEP_BODIES)) {
      expectTooDeep(await sendJson(`/v1/item/${itemId}/settings`, `{"camera":${text}}`, { method: "PATCH", token: alice.idToken }), `settings: ${shape}`);
      expectTooDeep(await sendJson(`/v1/item/${itemId}`, text, { method: "PATCH", token: alice.idToken }), `item: ${shape}`);
      expectTooDeep(await sendJson("/v1/contact", text), `contact: ${shape}`);
    }
  });

  it("on the site's POST /session and the webhooks", async () => {
    for (const [shape, text] of Object.entries(DEEP_BODIES)) {
      expectTooDeep(await sendJson("/session", text), `session: ${shape}`);
      expectTooDeep(await sendJson("/webhooks/stripe", text, { headers: { "Stripe-Signature": "t=1,v1=00" } }), `stripe: ${shape}`);
      expectTooDeep(
        await sendJson("/webhooks/app/uninstalled", text, {
          headers: { "X-Shopify-Topic": "app/uninstalled", "X-Shopify-Shop-Domain": "shop-a.myshopify.com", "X-Shopify-Hmac-Sha256": "AAAA" },
        }),
        `shopify: ${shape}`,
      );
    }
  });
});

describe("bodies over the size limit", () => {
  it("are refused with 413 in the API's shape on the API, /session and the webhooks", async () => {
    const tooBig = JSON.stringify({ name: "x".repeat(600 * 1024) });
    for (const [pathName, token] of [
      ["/v1/item", alice.idToken],
      ["/session", undefined],
      ["/webhooks/stripe", undefined],
      ["/webhooks/app/uninstalled", undefined],
    ] as const) {
      const answer = await sendJson(pathName, tooBig, { token });
      expect(answer.status, pathName).toBe(413);
      expect(answer.json, pathName).toMatchObject({ status: 413, error: "payload_too_large" });
    }
  });
});
