import { createSecretKey } from "node:crypto";
import { getHmac, getJwt, setUpValidSession } from "@shopify/shopify-api/test-helpers";
import { SignJWT } from "jose";
import { beforeEach, describe, expect, it, vi } from "vitest";

// Shopify routes against a real database: session tokens and webhook HMACs are minted with Shopify's own
// test helpers and checked by the real library. Set before any app module reads the environment.
const API_KEY = "scanroom-test-api-key";
const API_SECRET = "scanroom-test-api-secret-0123456789";
const APP_URL = "https://scanroom.test";
process.env.SHOPIFY_API_KEY = API_KEY;
process.env.SHOPIFY_API_SECRET = API_SECRET;
process.env.SHOPIFY_APP_URL = APP_URL;

// No network. The library captures `fetch` when it is first imported; a token exchange (or any other call to
// Shopify) would land here and fail. Every test asserts it was never called.
const fetchSpy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => {
  throw new Error("network is disabled in the Shopify integration tests");
});

const { db } = await import("~/db.server");
const { runWebhookOnce } = await import("~/domain/shops.server");
const { apiVersion, shopify } = await import("~/shopify.server");
const appLayout = await import("~/routes/app");
const appHome = await import("~/routes/app._index");
const authSplat = await import("~/routes/shopify.auth.$");
const webhookRoutes = {
  "app/uninstalled": await import("~/routes/webhooks.app.uninstalled"),
  "customers/data_request": await import("~/routes/webhooks.customers.data_request"),
  "customers/redact": await import("~/routes/webhooks.customers.redact"),
  "shop/redact": await import("~/routes/webhooks.shop.redact"),
};
type WebhookTopic = keyof typeof webhookRoutes;

const DESKTOP_UA =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

const shopDomain = (name: string) => `${name}.myshopify.com`;
const hostParam = (name: string) => Buffer.from(`admin.shopify.com/store/${name}`).toString("base64");

/** Runs a loader/action and returns what it returned, or the Response it threw. */
async function settle<T>(promise: Promise<T>): Promise<{ thrown: false; value: T } | { thrown: true; response: Response }> {
  try {
    return { thrown: false, value: await promise };
  } catch (error) {
    if (error instanceof Response) return { thrown: true, response: error };
    throw error;
  }
}

async function thrownResponse(promise: Promise<unknown>): Promise<Response> {
  const outcome = await settle(promise);
  if (!outcome.thrown) throw new Error(`expected a thrown Response, got ${JSON.stringify(outcome.value)}`);
  return outcome.response;
}

const args = (request: Request) => ({ request, params: {}, context: {} });

/** An embedded data request: App Bridge adds the session token as a bearer header. */
function bearerRequest(path: string, token: string) {
  return new Request(`${APP_URL}${path}`, {
    headers: { Authorization: `Bearer ${token}`, "User-Agent": DESKTOP_UA },
  });
}

/** An embedded document load: the admin iframe URL carries shop, host, embedded=1 and id_token. */
function documentRequest(path: string, name: string, token: string) {
  const url = new URL(`${APP_URL}${path}`);
  url.searchParams.set("embedded", "1");
  url.searchParams.set("shop", shopDomain(name));
  url.searchParams.set("host", hostParam(name));
  url.searchParams.set("id_token", token);
  return new Request(url, { headers: { "User-Agent": DESKTOP_UA } });
}

async function seedOfflineSession(name: string) {
  const session = setUpValidSession({ shop: shopDomain(name), expires: undefined });
  session.scope = "read_products,write_products";
  await shopify().sessionStorage.storeSession(session);
  return session;
}

let seedCounter = 0;
/** A shop as it looks after install: Shop row, offline session, and one product linked to a model. */
async function seedInstalledShop(name: string) {
  seedCounter += 1;
  await seedOfflineSession(name);
  const owner = await db().user.create({ data: { firebaseUid: `shopify-test-${name}-${seedCounter}` } });
  const item = await db().item.create({
    data: { ownerId: owner.id, name: `Chair ${name}`, modelType: "glb", uploadType: "model" },
  });
  const shop = await db().shop.create({
    data: {
      shopDomain: shopDomain(name),
      userId: owner.id,
      links: { create: { productGid: "gid://shopify/Product/1", itemId: item.id } },
    },
  });
  return { shop, owner, item };
}

async function snapshot(name: string) {
  const domain = shopDomain(name);
  return {
    sessions: await db().shopifySession.count({ where: { shop: domain } }),
    shop: await db().shop.findUnique({ where: { shopDomain: domain } }),
    links: await db().productModelLink.count({ where: { shop: { shopDomain: domain } } }),
  };
}

const WEBHOOK_BODIES: Record<WebhookTopic, (domain: string) => unknown> = {
  "app/uninstalled": (domain) => ({ id: 1, domain, myshopify_domain: domain }),
  "shop/redact": (domain) => ({ shop_id: 1, shop_domain: domain }),
  "customers/redact": (domain) => ({
    shop_id: 1,
    shop_domain: domain,
    customer: { id: 7, email: "shopper@example.com", phone: "555-0100" },
    orders_to_redact: [11],
  }),
  "customers/data_request": (domain) => ({
    shop_id: 1,
    shop_domain: domain,
    orders_requested: [11],
    customer: { id: 7, email: "shopper@example.com", phone: "555-0100" },
    data_request: { id: 99 },
  }),
};

let deliveryCounter = 0;
function webhookRequest(
  topic: WebhookTopic,
  name: string,
  { secret = API_SECRET, eventId }: { secret?: string; eventId?: string } = {},
) {
  deliveryCounter += 1;
  const body = JSON.stringify(WEBHOOK_BODIES[topic](shopDomain(name)));
  return new Request(`${APP_URL}/webhooks/${topic}`, {
    method: "POST",
    body,
    headers: {
      "Content-Type": "application/json",
      "X-Shopify-Hmac-Sha256": getHmac(body, secret),
      "X-Shopify-Topic": topic,
      "X-Shopify-Shop-Domain": shopDomain(name),
      "X-Shopify-API-Version": apiVersion,
      "X-Shopify-Webhook-Id": `webhook-${deliveryCounter}`,
      "X-Shopify-Event-Id": eventId ?? `event-${deliveryCounter}`,
      "X-Shopify-Triggered-At": new Date().toISOString(),
    },
  });
}

function deliver(topic: WebhookTopic, request: Request) {
  return settle(webhookRoutes[topic].action(args(request)));
}

async function expectOk(topic: WebhookTopic, request: Request) {
  const outcome = await deliver(topic, request);
  if (outcome.thrown) throw new Error(`${topic} threw ${outcome.response.status}`);
  expect(outcome.value.status).toBe(200);
}

beforeEach(async () => {
  fetchSpy.mockClear();
  await db().webhookEvent.deleteMany({});
  await db().productModelLink.deleteMany({});
  await db().shop.deleteMany({});
  await db().shopifySession.deleteMany({});
  return () => {
    expect(fetchSpy).not.toHaveBeenCalled();
  };
});

describe("embedded admin (/app)", () => {
  it("accepts a valid session token as a bearer header and records the install", async () => {
    await seedOfflineSession("shop-a");
    const { token } = await getJwt("shop-a", API_KEY, API_SECRET);

    const layout = await settle(appLayout.loader(args(bearerRequest("/app", token))));
    expect(layout).toEqual({ thrown: false, value: { apiKey: API_KEY } });

    const home = await settle(appHome.loader(args(bearerRequest("/app", token))));
    expect(home.thrown).toBe(false);
    if (home.thrown) return;
    expect(home.value).toMatchObject({ shopDomain: "shop-a.myshopify.com", connected: false, linkCount: 0 });
    // A signed, expiring connect link for this shop (tests/integration/shopify-admin.test.ts covers it).
    const connectUrl = new URL(home.value.connectUrl);
    expect(connectUrl.pathname).toBe("/auth/connect/shopify");
    expect(connectUrl.searchParams.get("token")).toMatch(/^[\w-]+\.[\w-]+$/);

    const shop = await db().shop.findUnique({ where: { shopDomain: "shop-a.myshopify.com" } });
    expect(shop).not.toBeNull();
    expect(shop?.uninstalledAt).toBeNull();
  });

  it("accepts a document load with id_token, shop, host and embedded=1", async () => {
    await seedInstalledShop("shop-a");
    const { token } = await getJwt("shop-a", API_KEY, API_SECRET);
    const home = await settle(appHome.loader(args(documentRequest("/app", "shop-a", token))));
    expect(home).toMatchObject({ thrown: false, value: { connected: true, linkCount: 1 } });
  });

  it("clears the uninstall marks when the shop opens the app again (reinstall)", async () => {
    await seedInstalledShop("shop-a");
    await db().shop.update({
      where: { shopDomain: "shop-a.myshopify.com" },
      data: { uninstalledAt: new Date(), redactAfter: new Date(Date.now() + 1000) },
    });
    const { token } = await getJwt("shop-a", API_KEY, API_SECRET);
    await appHome.loader(args(bearerRequest("/app", token)));
    const shop = await db().shop.findUniqueOrThrow({ where: { shopDomain: "shop-a.myshopify.com" } });
    expect(shop.uninstalledAt).toBeNull();
    expect(shop.redactAfter).toBeNull();
    expect(await db().productModelLink.count({ where: { shopId: shop.id } })).toBe(1);
  });

  const badTokens: Record<string, () => Promise<string>> = {
    "signed with the wrong secret": async () => (await getJwt("shop-a", API_KEY, "not-the-secret")).token,
    expired: async () => {
      const now = Math.floor(Date.now() / 1000);
      return (await getJwt("shop-a", API_KEY, API_SECRET, { exp: now - 120, nbf: now - 3600, iat: now - 3600 })).token;
    },
    "for another app (wrong audience)": async () => (await getJwt("shop-a", "another-app", API_SECRET)).token,
    "with alg none": async () => {
      const { payload } = await getJwt("shop-a", API_KEY, API_SECRET);
      const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
      return `${encode({ alg: "none", typ: "JWT" })}.${encode(payload)}.`;
    },
    "signed with HS512 by the right secret (only HS256 is allowed)": async () => {
      const { payload } = await getJwt("shop-a", API_KEY, API_SECRET);
      return new SignJWT({ ...payload })
        .setProtectedHeader({ alg: "HS512" })
        .sign(createSecretKey(Buffer.from(API_SECRET)));
    },
  };

  for (const [label, mint] of Object.entries(badTokens)) {
    it(`answers 401 with the retry header to a bearer token ${label}`, async () => {
      await seedOfflineSession("shop-a");
      const token = await mint();
      for (const loader of [appLayout.loader, appHome.loader]) {
        const response = await thrownResponse(loader(args(bearerRequest("/app", token))));
        expect(response.status).toBe(401);
        expect(response.headers.get("X-Shopify-Retry-Invalid-Session-Request")).toBe("1");
      }
      expect(await db().shop.count()).toBe(0);
    });

    it(`sends a document load with an id_token ${label} to the session-token bounce page`, async () => {
      await seedOfflineSession("shop-a");
      const token = await mint();
      const response = await thrownResponse(appHome.loader(args(documentRequest("/app", "shop-a", token))));
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get("Location") ?? "", APP_URL);
      expect(location.pathname).toBe("/shopify/auth/session-token");
      expect(location.searchParams.get("id_token")).toBeNull();
      expect(location.searchParams.get("shopify-reload")).toMatch(/^https:\/\/scanroom\.test\/app\?/);
      expect(await db().shop.count()).toBe(0);
    });
  }

  it("redirects a request with no session token and no shop to the login page", async () => {
    const request = new Request(`${APP_URL}/app`, { headers: { "User-Agent": DESKTOP_UA } });
    const response = await thrownResponse(appLayout.loader(args(request)));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/shopify/auth/login");
  });

  it("answers 410 to bots without touching auth", async () => {
    const { token } = await getJwt("shop-a", API_KEY, API_SECRET);
    const request = new Request(`${APP_URL}/app`, {
      headers: { Authorization: `Bearer ${token}`, "User-Agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" },
    });
    expect((await thrownResponse(appLayout.loader(args(request)))).status).toBe(410);
  });

  it("renders the App Bridge bounce page under the auth prefix", async () => {
    const url = `${APP_URL}/shopify/auth/session-token?shop=shop-a.myshopify.com&host=${hostParam("shop-a")}&embedded=1`;
    const response = await thrownResponse(
      authSplat.loader(args(new Request(url, { headers: { "User-Agent": DESKTOP_UA } }))),
    );
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("app-bridge.js");
    expect(html).toContain(API_KEY);
  });
});

describe("webhooks", () => {
  for (const topic of Object.keys(webhookRoutes) as WebhookTopic[]) {
    it(`${topic}: a bad HMAC gets 401 and changes nothing`, async () => {
      await seedInstalledShop("shop-a");
      const before = await snapshot("shop-a");
      const outcome = await deliver(topic, webhookRequest(topic, "shop-a", { secret: "forged-secret" }));
      expect(outcome.thrown && outcome.response.status).toBe(401);
      expect(await snapshot("shop-a")).toEqual(before);
      expect(await db().webhookEvent.count()).toBe(0);
    });

    it(`${topic}: a tampered body with the original HMAC gets 401`, async () => {
      await seedInstalledShop("shop-a");
      const genuine = webhookRequest(topic, "shop-a");
      const tampered = new Request(genuine.url, {
        method: "POST",
        headers: genuine.headers,
        body: JSON.stringify(WEBHOOK_BODIES[topic](shopDomain("shop-b"))),
      });
      const outcome = await deliver(topic, tampered);
      expect(outcome.thrown && outcome.response.status).toBe(401);
      expect(await db().webhookEvent.count()).toBe(0);
    });
  }

  it("app/uninstalled deletes that shop's sessions, marks it uninstalled, keeps its links and other shops", async () => {
    await seedInstalledShop("shop-a");
    await seedInstalledShop("shop-b");
    const otherBefore = await snapshot("shop-b");
    const started = Date.now();

    await expectOk("app/uninstalled", webhookRequest("app/uninstalled", "shop-a"));

    const after = await snapshot("shop-a");
    expect(after.sessions).toBe(0);
    expect(after.links).toBe(1);
    expect(after.shop?.uninstalledAt?.getTime()).toBeGreaterThanOrEqual(started - 1000);
    const redactIn = (after.shop?.redactAfter?.getTime() ?? 0) - (after.shop?.uninstalledAt?.getTime() ?? 0);
    expect(redactIn).toBe(48 * 60 * 60 * 1000);
    expect(await snapshot("shop-b")).toEqual(otherBefore);
    expect(await db().webhookEvent.findMany()).toEqual([
      expect.objectContaining({ source: "shopify", shop: "shop-a.myshopify.com", topic: "APP_UNINSTALLED" }),
    ]);
  });

  it("the same event delivered twice has one effect", async () => {
    await seedInstalledShop("shop-a");
    await expectOk("app/uninstalled", webhookRequest("app/uninstalled", "shop-a", { eventId: "evt-1" }));
    const first = await snapshot("shop-a");

    // The merchant reinstalls (new session) before Shopify redelivers the old event (new webhook id, same event).
    await seedOfflineSession("shop-a");
    await expectOk("app/uninstalled", webhookRequest("app/uninstalled", "shop-a", { eventId: "evt-1" }));

    const second = await snapshot("shop-a");
    expect(second.sessions).toBe(1);
    expect(second.shop?.uninstalledAt).toEqual(first.shop?.uninstalledAt);
    expect(await db().webhookEvent.count()).toBe(1);
  });

  it("concurrent deliveries of one event run the handler once", async () => {
    await seedInstalledShop("shop-a");
    let runs = 0;
    const event = { eventId: "evt-concurrent", topic: "APP_UNINSTALLED", shop: "shop-a.myshopify.com" };
    const slow = async () => {
      runs += 1;
      await new Promise((resolve) => setTimeout(resolve, 200));
      return "done";
    };
    const results = await Promise.all([runWebhookOnce(event, slow), runWebhookOnce(event, slow)]);
    expect(runs).toBe(1);
    expect(results.filter((r) => r.duplicate)).toHaveLength(1);
    expect(await db().webhookEvent.count()).toBe(1);

    const routed = await Promise.all([
      deliver("shop/redact", webhookRequest("shop/redact", "shop-a", { eventId: "evt-redact" })),
      deliver("shop/redact", webhookRequest("shop/redact", "shop-a", { eventId: "evt-redact" })),
    ]);
    expect(routed.map((r) => (r.thrown ? r.response.status : r.value.status))).toEqual([200, 200]);
    expect(await db().webhookEvent.count()).toBe(2);
  });

  it("a handler that throws leaves the event unmarked, so a retry runs it", async () => {
    await seedInstalledShop("shop-a");
    const event = { eventId: "evt-flaky", topic: "SHOP_REDACT", shop: "shop-a.myshopify.com" };
    await expect(
      runWebhookOnce(event, async (tx) => {
        await tx.shop.deleteMany({ where: { shopDomain: "shop-a.myshopify.com" } });
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await db().webhookEvent.count()).toBe(0);
    // The handler's own writes rolled back with the marker.
    expect((await snapshot("shop-a")).shop).not.toBeNull();

    const retry = await runWebhookOnce(event, async () => "ran");
    expect(retry).toEqual({ duplicate: false, result: "ran" });
    expect(await db().webhookEvent.count()).toBe(1);
  });

  it("shop/redact deletes the shop, its links and sessions, and nothing of another shop", async () => {
    const a = await seedInstalledShop("shop-a");
    await seedInstalledShop("shop-b");
    const otherBefore = await snapshot("shop-b");

    await expectOk("shop/redact", webhookRequest("shop/redact", "shop-a"));

    expect(await snapshot("shop-a")).toEqual({ sessions: 0, shop: null, links: 0 });
    expect(await db().productModelLink.count({ where: { shopId: a.shop.id } })).toBe(0);
    // The merchant's Scanroom account and model are theirs, not the shop's: they stay.
    expect(await db().item.count({ where: { id: a.item.id } })).toBe(1);
    expect(await snapshot("shop-b")).toEqual(otherBefore);
  });

  it("shop B's webhooks never touch shop A", async () => {
    await seedInstalledShop("shop-a");
    const before = await snapshot("shop-a");
    for (const topic of Object.keys(webhookRoutes) as WebhookTopic[]) {
      await expectOk(topic, webhookRequest(topic, "shop-b"));
    }
    expect(await snapshot("shop-a")).toEqual(before);
    expect(await db().webhookEvent.count({ where: { shop: "shop-a.myshopify.com" } })).toBe(0);
  });

  for (const topic of ["customers/redact", "customers/data_request"] as const) {
    it(`${topic} answers 200, records the event and changes no shop data`, async () => {
      await seedInstalledShop("shop-a");
      const before = await snapshot("shop-a");
      await expectOk(topic, webhookRequest(topic, "shop-a"));
      expect(await snapshot("shop-a")).toEqual(before);
      expect(await db().webhookEvent.count({ where: { shop: "shop-a.myshopify.com" } })).toBe(1);
    });
  }
});
