import { readFileSync } from "node:fs";
import path from "node:path";
import { PNG } from "pngjs";
import { beforeAll, describe, expect, it } from "vitest";
import { createIdentity, type TestIdentity } from "../setup/firebase-users";
import { serveAppForFile } from "../setup/served-app";
import { SHARED_DATA } from "../setup/shared-data";
import { sessionCookie } from "../setup/site-session";
import { uploadReadyModel, waitForAutomaticThumbnail } from "../setup/upload-model";

// Embeds and sharing (issue 6): registered embeds and the embed quota, the /embed page (framing, options,
// watermark, visibility, poster fallback when a plan lapses), share links and link credits, viewer settings,
// the viewer JSON, oEmbed and link-preview tags. Everything through the built app over HTTP.
const DATA = SHARED_DATA;
const glb = readFileSync(path.join(DATA, "models/SpecularTest.glb"));

const app = serveAppForFile();
const api = app.api;
let alice: TestIdentity;
let bob: TestIdentity;
let aliceId: string;
const ids = { public: "", unlisted: "", private: "" };

async function db() {
  return (await import("~/db.server")).db();
}

async function setPlan(userId: string, planType: "free" | "starter" | "growth" | "pro", status = "active") {
  const plan = await (await db()).plan.findUniqueOrThrow({ where: { planType } });
  await (await db()).subscription.update({ where: { userId }, data: { planId: plan.id, status } });
}

async function page(pathName: string, cookie?: string) {
  const response = await fetch(`${app.url}${pathName}`, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

function uploadModel(owner: TestIdentity, name: string, visibility: "public" | "unlisted" | "private") {
  return uploadReadyModel(api, owner, { bytes: glb, modelType: "glb", name, visibility });
}

async function setThumbnail(owner: TestIdentity, itemId: string, width: number, height: number) {
  const image = new PNG({ width, height });
  image.data.fill(200);
  const upload = await api("POST", `/item/${itemId}/thumbnail`, { token: owner.idToken });
  expect((await fetch(upload.json.data.url, { method: "PUT", body: new Uint8Array(PNG.sync.write(image)) })).status).toBe(200);
  const set = await api("PUT", `/item/${itemId}/thumbnail`, { token: owner.idToken, body: { path: upload.json.data.path } });
  expect(set.status).toBe(200);
  return set.json.data.thumbnail_url as string;
}

const quotas = async (who: TestIdentity) => (await api("GET", "/user/quotas", { token: who.idToken })).json.data;
const embedState = (html: string) => /data-embed-state="(\w+)"/.exec(html)?.[1];

beforeAll(async () => {
  [alice, bob] = await Promise.all([createIdentity({ name: "Alice" }), createIdentity({ name: "Bob" })]);
  aliceId = (await api("GET", "/user", { token: alice.idToken })).json.data.user.id;
  await api("GET", "/user", { token: bob.idToken });
  ids.public = await uploadModel(alice, "Oak chair", "public");
  ids.unlisted = await uploadModel(alice, "Walnut chair", "unlisted");
  ids.private = await uploadModel(alice, "Secret chair", "private");
});

describe("registered embeds and the embed quota", () => {
  it("registers an embed with copyable iframe code and counts it against the plan's quota", async () => {
    expect(await quotas(alice)).toMatchObject({ embed_quota: 1, embed_credit: 1 }); // free plan
    const created = await api("POST", `/item/${ids.public}/embed`, { token: alice.idToken, body: { label: "Blog" } });
    expect(created.status).toBe(200);
    const embed = created.json.data;
    expect(embed).toMatchObject({ label: "Blog", live: true, load_count: 0, url: `${app.url}/embed/${ids.public}?embed_id=${embed.id}` });
    expect(embed.code).toBe(
      `<iframe src="${app.url}/embed/${ids.public}?embed_id=${embed.id}" title="Oak chair" width="640" height="480" style="border:0" allow="fullscreen; xr-spatial-tracking" allowfullscreen></iframe>`,
    );
    expect(await quotas(alice)).toMatchObject({ embed_quota: 1, embed_credit: 0 });

    const refused = await api("POST", `/item/${ids.unlisted}/embed`, { token: alice.idToken, body: {} });
    expect(refused.status).toBe(402);
    expect(refused.json).toEqual({ status: 402, error: "quota_exceeded", message: "Your plan allows 1 active embed and all are in use. Remove one or upgrade your plan." });
    expect(await (await db()).embed.count({ where: { ownerId: aliceId } })).toBe(1);

    const listed = await api("GET", `/item/${ids.public}/embed`, { token: alice.idToken });
    expect(listed.status).toBe(200);
    expect(listed.json.data).toMatchObject({ embed_quota: 1, embed_credit: 0, watermark_removal: false });
    expect(listed.json.data.embeds).toEqual([expect.objectContaining({ id: embed.id, code: embed.code, live: true })]);

    // The frame counts its loads.
    expect(embedState((await page(`/embed/${ids.public}?embed_id=${embed.id}`)).text)).toBe("live");
    expect((await api("GET", `/item/${ids.public}/embed`, { token: alice.idToken })).json.data.embeds[0].load_count).toBe(1);

    // Revoking frees the place; the revoked frame shows the poster, never a broken page.
    expect((await api("DELETE", `/item/${ids.public}/embed/${embed.id}`, { token: alice.idToken })).status).toBe(200);
    expect(await quotas(alice)).toMatchObject({ embed_credit: 1 });
    const revoked = await page(`/embed/${ids.public}?embed_id=${embed.id}`);
    expect(revoked.status).toBe(200);
    expect(embedState(revoked.text)).toBe("poster");
    expect(revoked.text).toContain("View Oak chair in 3D on Scanroom");
    expect((await api("DELETE", `/item/${ids.public}/embed/${embed.id}`, { token: alice.idToken })).status).toBe(404);
  });

  it("never lets parallel requests pass the quota", async () => {
    await setPlan(aliceId, "starter"); // 10 embeds
    const before = (await quotas(alice)).embed_credit;
    const results = await Promise.all(
      Array.from({ length: before + 3 }, (_, n) => api("POST", `/item/${ids.unlisted}/embed`, { token: alice.idToken, body: { label: `Shop ${n}` } })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(before);
    expect(results.filter((r) => r.status === 402)).toHaveLength(3);
    expect(await quotas(alice)).toMatchObject({ embed_quota: 10, embed_credit: 0 });
  });

  it("keeps the oldest embeds live and shows the poster on the rest when the plan lapses", async () => {
    const listed = (await api("GET", `/item/${ids.unlisted}/embed`, { token: alice.idToken })).json.data.embeds as Array<{ id: string; live: boolean }>;
    expect(listed.every((e) => e.live)).toBe(true);
    await setPlan(aliceId, "starter", "canceled"); // back on the free plan's 1 embed
    const after = (await api("GET", `/item/${ids.unlisted}/embed`, { token: alice.idToken })).json.data;
    expect(after.embed_quota).toBe(1);
    expect(after.embeds.map((e: { live: boolean }) => e.live)).toEqual([true, ...Array(listed.length - 1).fill(false)]);
    const oldest = await page(`/embed/${ids.unlisted}?embed_id=${listed[0].id}`);
    expect(embedState(oldest.text)).toBe("live");
    const beyond = await page(`/embed/${ids.unlisted}?embed_id=${listed[1].id}`);
    expect(beyond.status).toBe(200);
    expect(embedState(beyond.text)).toBe("poster");
    // The plain embed of the model keeps working.
    expect(embedState((await page(`/embed/${ids.unlisted}`)).text)).toBe("live");
    // Clean up: free the places for the tests below.
    for (const embed of listed) await api("DELETE", `/item/${ids.unlisted}/embed/${embed.id}`, { token: alice.idToken });
    await setPlan(aliceId, "free");
  });

  it("refuses to embed a private model, and another user's model is not found", async () => {
    const refused = await api("POST", `/item/${ids.private}/embed`, { token: alice.idToken, body: {} });
    expect(refused.status).toBe(409);
    expect(refused.json.message).toBe("This model is private. Make it public or unlisted before embedding or sharing it.");
    for (const [method, pathName, body] of [
      ["POST", `/item/${ids.public}/embed`, {}],
      ["GET", `/item/${ids.public}/embed`, undefined],
      ["POST", `/item/${ids.public}/share`, {}],
      ["GET", `/item/${ids.public}/share`, undefined],
      ["PATCH", `/item/${ids.public}/settings`, { autorotate: true }],
      ["PATCH", `/item/${ids.public}/embed/watermark`, { is_watermark_enabled: true }],
    ] as const) {
      const res = await api(method, pathName, { token: bob.idToken, body });
      expect(res.status, `${method} ${pathName}`).toBe(404);
      expect(res.json.error).toBe("not_found");
    }
    expect((await api("GET", `/item/${ids.private}/viewer`, { token: bob.idToken })).status).toBe(404);
    expect((await api("POST", `/item/${ids.public}/embed`, { body: {} })).status).toBe(401);
    expect((await api("POST", `/item/${ids.public}/embed`, { token: alice.idToken, body: { label: "x".repeat(81) } })).status).toBe(400);
  });
});

describe("the /embed page", () => {
  it("is framable by any site, has no layout, and follows the display options in its URL", async () => {
    const embed = await page(`/embed/${ids.public}?autorotate=1&annotations=0&background=%23F4F4F5`);
    expect(embed.status).toBe(200);
    expect(embed.headers.get("content-security-policy")).toMatch(/(^|; )frame-ancestors \*(;|$)/);
    expect(embed.headers.get("x-frame-options")).toBeNull();
    expect(embed.text).not.toContain('class="site-header"');
    expect(embed.text).toContain('style="background:#f4f4f5"');
    expect(embed.text).toContain('data-annotations="hidden"');
    expect(embed.text).toContain('"options":{"autorotate":true,"annotations":false,"background":"#f4f4f5","embedId":null}');
    // Garbage in the URL is ignored, not an error.
    const odd = await page(`/embed/${ids.public}?autorotate=maybe&background=url(x)&embed_id=nope`);
    expect(odd.status).toBe(200);
    expect(embedState(odd.text)).toBe("live");
    expect(odd.text).toContain('data-annotations="shown"');
  });

  it("shows the watermark unless a plan with watermark removal turned it off, and again once that plan lapses", async () => {
    expect((await page(`/embed/${ids.public}`)).text).toContain("Made with Scanroom");
    const refused = await api("PATCH", `/item/${ids.public}/embed/watermark`, { token: alice.idToken, body: { is_watermark_enabled: false } });
    expect(refused.status).toBe(403);
    await setPlan(aliceId, "growth");
    const off = await api("PATCH", `/item/${ids.public}/embed/watermark`, { token: alice.idToken, body: { is_watermark_enabled: false } });
    expect(off.status).toBe(200);
    expect((await page(`/embed/${ids.public}`)).text).not.toContain("Made with Scanroom");
    expect((await api("GET", `/item/${ids.public}/viewer`)).json.data.watermark).toBe(false);
    await setPlan(aliceId, "growth", "past_due");
    expect((await page(`/embed/${ids.public}`)).text).toContain("Made with Scanroom");
    expect((await api("GET", `/item/${ids.public}/viewer`)).json.data.watermark).toBe(true);
    await setPlan(aliceId, "free");
  });

  it("names the viewer's scripts in a live embed's HTML, so they load with the page; Spark only for a splat", async () => {
    const hrefs = (html: string, rel: string) => [...html.matchAll(new RegExp(`<link[^>]*rel="${rel}"[^>]*>`, "g"))].map((match) => /href="([^"]+)"/.exec(match[0])![1]!);
    const live = await page(`/embed/${ids.public}`);
    const modules = hrefs(live.text, "modulepreload");
    expect(modules.some((href) => /\/assets\/three\.module-[\w-]+\.js$/.test(href))).toBe(true);
    expect(modules.some((href) => /spark/.test(href))).toBe(false); // a .glb: no splat renderer
    expect(hrefs(live.text, "preload").some((href) => href.endsWith(".wasm"))).toBe(false);
    for (const href of modules) {
      const response = await fetch(`${app.url}${href}`);
      expect(response.status, href).toBe(200);
      expect(response.headers.get("content-type"), href).toMatch(/javascript/);
    }
    expect(hrefs((await page(`/embed/${ids.private}`)).text, "modulepreload").some((href) => /three\.module/.test(href))).toBe(false);
  });

  it("refuses a private or unknown model with a plain page — to its owner too, since an embed shows what visitors see", async () => {
    const cookie = await sessionCookie(app.url, alice);
    for (const [pathName, who] of [
      [`/embed/${ids.private}`, undefined],
      [`/embed/${ids.private}`, cookie],
      ["/embed/00000000-0000-4000-8000-000000000000", undefined],
      ["/embed/not-a-uuid", undefined],
    ] as const) {
      const refused = await page(pathName, who);
      expect(refused.status, pathName).toBe(404);
      expect(refused.headers.get("content-security-policy")).toMatch(/(^|; )frame-ancestors \*(;|$)/);
      expect(refused.text).toContain("This model is private or no longer available.");
      expect(embedState(refused.text)).toBe("unavailable");
      expect(refused.text).not.toContain("Secret chair");
    }
  });
});

describe("viewer settings", () => {
  it("validates a PATCH and changes nothing on bad input", async () => {
    const before = (await api("GET", `/item/${ids.public}`, { token: alice.idToken })).json.data.settings;
    for (const [body, message] of [
      [{}, "nothing to update"],
      [{ background: "red" }, "background must be a hex colour"],
      [{ units: "furlong" }, "units must be one of m, cm, mm, in, ft"],
      [{ camera: { position: [0, 0, 1], target: [0, 0, 1] } }, "position and target must differ"],
      [{ camera: { position: [0, 0], target: [0, 0, 0] } }, "camera.position"],
      [{ meters_per_unit: -1 }, "meters_per_unit must be a positive number"],
      [{ autorotate: true, zoom: 3 }, "zoom"],
    ] as const) {
      const res = await api("PATCH", `/item/${ids.public}/settings`, { token: alice.idToken, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error).toBe("invalid_input");
      expect(res.json.message).toContain(message);
    }
    expect((await api("GET", `/item/${ids.public}`, { token: alice.idToken })).json.data.settings).toEqual(before);
  });

  it("merges patches (parallel ones too) and answers the whole settings with their version", async () => {
    const camera = { position: [1.5, 0.8, 2], target: [0, 0.4, 0] };
    const [a, b] = await Promise.all([
      api("PATCH", `/item/${ids.public}/settings`, { token: alice.idToken, body: { camera, units: "cm" } }),
      api("PATCH", `/item/${ids.public}/settings`, { token: alice.idToken, body: { background: "#102030", autorotate: true } }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const expected = { version: 3, camera, background: "#102030", autorotate: true, autorotate_speed: 1, fov: null, units: "cm", meters_per_unit: null };
    expect((await api("GET", `/item/${ids.public}`)).json.data.settings).toEqual(expected);
    const reset = await api("PATCH", `/item/${ids.public}/settings`, { token: alice.idToken, body: { background: null, meters_per_unit: 0.01 } });
    expect(reset.json.data).toEqual({ ...expected, background: null, meters_per_unit: 0.01 });
  });

  it("stores a gradient or an environment background, answers it to anyone, and refuses malformed ones with 400", async () => {
    const gradient = { type: "gradient", top: "#336699", bottom: "#F0E0D0" };
    const saved = await api("PATCH", `/item/${ids.public}/settings`, { token: alice.idToken, body: { background: gradient } });
    expect(saved.status).toBe(200);
    expect(saved.json.data).toMatchObject({ version: 3, background: { type: "gradient", top: "#336699", bottom: "#f0e0d0" } });
    expect((await api("GET", `/item/${ids.public}/viewer`)).json.data.settings.background).toEqual({ type: "gradient", top: "#336699", bottom: "#f0e0d0" });
    const environment = await api("PATCH", `/item/${ids.public}/settings`, { token: alice.idToken, body: { background: { type: "environment", name: "sunset" } } });
    expect(environment.status).toBe(200);
    expect((await api("GET", `/item/${ids.public}`)).json.data.settings.background).toEqual({ type: "environment", name: "sunset" });
    const row = await (await db()).item.findUniqueOrThrow({ where: { id: ids.public } });
    expect(row).toMatchObject({ settingsVersion: 3, settings: { background: { type: "environment", name: "sunset" } } });

    for (const background of [
      { type: "gradient", top: "#336699" },
      { type: "gradient", top: "#336699", bottom: "navy" },
      { type: "environment", name: "moon" },
      { type: "image", url: "https://example.com/sky.hdr" },
      "linear-gradient(#fff, #000)",
    ]) {
      const res = await api("PATCH", `/item/${ids.public}/settings`, { token: alice.idToken, body: { background } });
      process.stdout.write(`PATCH background ${JSON.stringify(background)} -> ${res.status} ${JSON.stringify(res.json)}\n`);
      expect(res.status, JSON.stringify(background)).toBe(400);
      expect(res.json).toMatchObject({ error: "invalid_input", message: expect.stringContaining("background must be a hex colour such as #1e1f22") });
    }
    expect((await api("GET", `/item/${ids.public}`)).json.data.settings.background).toEqual({ type: "environment", name: "sunset" });
    await api("PATCH", `/item/${ids.public}/settings`, { token: alice.idToken, body: { background: null } });
  });

  it("migrates settings stored by an older schema when they are read", async () => {
    // A version-2 row with a colour reads as the same colour in version 3.
    await (await db()).item.update({ where: { id: ids.unlisted }, data: { settings: { background: "#445566", autorotate: true }, settingsVersion: 2 } });
    expect((await api("GET", `/item/${ids.unlisted}/viewer`)).json.data.settings).toMatchObject({ version: 3, background: "#445566", autorotate: true });
    await (await db()).item.update({
      where: { id: ids.unlisted },
      data: { settings: { camera: { position: { x: 3, y: 2, z: 1 }, target: { x: 0, y: 0, z: 0 } }, autorotate: true }, settingsVersion: null },
    });
    const viewer = await api("GET", `/item/${ids.unlisted}/viewer`);
    expect(viewer.json.data.settings).toEqual({
      version: 3,
      camera: { position: [3, 2, 1], target: [0, 0, 0] },
      background: null,
      autorotate: true,
      autorotate_speed: 1,
      fov: null,
      units: "m",
      meters_per_unit: null,
    });
    // A patch writes the current version.
    await api("PATCH", `/item/${ids.unlisted}/settings`, { token: alice.idToken, body: { units: "ft" } });
    const row = await (await db()).item.findUniqueOrThrow({ where: { id: ids.unlisted } });
    expect(row.settingsVersion).toBe(3);
    expect(row.settings).toMatchObject({ camera: { position: [3, 2, 1] }, units: "ft" });
  });
});

describe("GET /v1/item/{id}/viewer", () => {
  it("answers URLs, settings and annotations in tour order, cacheable with an ETag", async () => {
    const client = await db();
    await client.annotation.createMany({
      data: [
        { itemId: ids.public, sortOrder: 1, title: "Seat", body: "<p>Oiled oak</p>", position: [0, 0.4, 0], camera: { position: [0, 1, 1], target: [0, 0.4, 0] } },
        { itemId: ids.public, sortOrder: 0, title: "Leg", position: [0.2, 0, 0.2] },
      ],
    });
    const res = await api("GET", `/item/${ids.public}/viewer`);
    expect(res.status).toBe(200);
    const data = res.json.data;
    expect(data).toMatchObject({
      item: { id: ids.public, name: "Oak chair", file_format: "glb", visibility: "public", owner: { display_name: "Alice" } },
      model_url: `${app.url}/v1/item/${ids.public}/file`,
      page_url: `${app.url}/item/${ids.public}`,
      embed_url: `${app.url}/embed/${ids.public}`,
      watermark: true,
    });
    expect(data.item).not.toHaveProperty("is_owner");
    expect(data.annotations.map((a: { title: string }) => a.title)).toEqual(["Leg", "Seat"]);
    expect(data.annotations[1]).toMatchObject({ body: "<p>Oiled oak</p>", camera: { position: [0, 1, 1], target: [0, 0.4, 0] }, order: 1 });

    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=60, stale-while-revalidate=60");
    const again = await fetch(`${app.url}/v1/item/${ids.public}/viewer`, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    await api("PATCH", `/item/${ids.public}/settings`, { token: alice.idToken, body: { autorotate: false } });
    const changed = await fetch(`${app.url}/v1/item/${ids.public}/viewer`, { headers: { "If-None-Match": etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
  });

  it("serves a private model to its owner only, never from a shared cache", async () => {
    expect((await api("GET", `/item/${ids.private}/viewer`)).status).toBe(404);
    const own = await api("GET", `/item/${ids.private}/viewer`, { token: alice.idToken });
    expect(own.status).toBe(200);
    expect(own.headers.get("cache-control")).toBe("private, no-cache");
  });
});

describe("share links and link credits", () => {
  it("spends a link credit per link, refuses when none is left, and follows and revokes links", async () => {
    expect(await quotas(alice)).toMatchObject({ link_quota: 3, link_credit: 3 });
    const first = await api("POST", `/item/${ids.public}/share`, { token: alice.idToken, body: { label: "Newsletter" } });
    expect(first.status).toBe(200);
    expect(first.json.data).toMatchObject({ label: "Newsletter", open_count: 0, url: expect.stringMatching(new RegExp(`^${app.url}/s/[A-Za-z0-9]{10}$`)) });
    expect(await quotas(alice)).toMatchObject({ link_credit: 2 });
    expect((await api("POST", `/item/${ids.private}/share`, { token: alice.idToken, body: {} })).status).toBe(409);
    expect(await quotas(alice)).toMatchObject({ link_credit: 2 });
    await api("POST", `/item/${ids.unlisted}/share`, { token: alice.idToken, body: {} });
    await api("POST", `/item/${ids.public}/share`, { token: alice.idToken, body: {} });
    const refused = await api("POST", `/item/${ids.public}/share`, { token: alice.idToken, body: {} });
    expect(refused.status).toBe(402);
    expect(refused.json).toEqual({ status: 402, error: "quota_exceeded", message: "You have used all your available links for this billing period." });
    const listed = await api("GET", `/item/${ids.public}/share`, { token: alice.idToken });
    expect(listed.json.data).toMatchObject({ link_quota: 3, link_credit: 0 });
    expect(listed.json.data.links).toHaveLength(2);

    const slugPath = new URL(first.json.data.url).pathname;
    const opened = await page(slugPath);
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toBe(`/item/${ids.public}`);
    const after = (await api("GET", `/item/${ids.public}/share`, { token: alice.idToken })).json.data.links;
    expect(after.find((l: { id: string }) => l.id === first.json.data.id).open_count).toBe(1);

    expect((await api("DELETE", `/item/${ids.public}/share/${first.json.data.id}`, { token: bob.idToken })).status).toBe(404);
    expect((await api("DELETE", `/item/${ids.public}/share/${first.json.data.id}`, { token: alice.idToken })).status).toBe(200);
    const gone = await page(slugPath);
    expect(gone.status).toBe(404);
    expect(gone.text).toContain("This link is not available");
    expect(await quotas(alice)).toMatchObject({ link_credit: 0 }); // revoking gives nothing back
    expect((await page("/s/AAAAAAAAAA")).status).toBe(404);
  });
});

describe("oEmbed and link previews", () => {
  it("answers valid oEmbed JSON for a public or unlisted model link, with the thumbnail and its size", async () => {
    const thumbnailUrl = await setThumbnail(alice, ids.public, 64, 48);
    const url = encodeURIComponent(`${app.url}/item/${ids.public}`);
    const response = await fetch(`${app.url}/oembed?url=${url}&format=json`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const answer = await response.json();
    expect(answer).toEqual({
      version: "1.0",
      type: "rich",
      title: "Oak chair",
      author_name: "Alice",
      author_url: `${app.url}/u/${aliceId}`,
      provider_name: "Scanroom",
      provider_url: `${app.url}/`,
      cache_age: 3600,
      html: `<iframe src="${app.url}/embed/${ids.public}" title="Oak chair" width="640" height="480" style="border:0" allow="fullscreen; xr-spatial-tracking" allowfullscreen></iframe>`,
      width: 640,
      height: 480,
      thumbnail_url: `${app.url}${thumbnailUrl}`,
      thumbnail_width: 64,
      thumbnail_height: 48,
    });
    // The other model's thumbnail is the one rendered for it automatically (640×480) once that is done.
    await waitForAutomaticThumbnail(api, alice, ids.unlisted);
    const small = await (await fetch(`${app.url}/oembed?url=${encodeURIComponent(`${app.url}/embed/${ids.unlisted}`)}&maxwidth=320`)).json();
    expect(small).toMatchObject({ type: "rich", title: "Walnut chair", width: 320, height: 240, thumbnail_width: 640, thumbnail_height: 480 });
    expect(small.thumbnail_url).toMatch(new RegExp(`^${app.url}/v1/item/${ids.unlisted}/thumbnail`));
  });

  it("refuses private, unknown and foreign links, and formats other than JSON", async () => {
    const ask = (query: string) => fetch(`${app.url}/oembed?${query}`);
    expect((await ask(`url=${encodeURIComponent(`${app.url}/item/${ids.private}`)}&format=json`)).status).toBe(404);
    expect((await ask(`url=${encodeURIComponent(`https://evil.example/item/${ids.public}`)}`)).status).toBe(404);
    expect((await ask(`url=${encodeURIComponent(`${app.url}/item/${ids.public}`)}&format=xml`)).status).toBe(501);
    const missing = await ask("format=json");
    expect(missing.status).toBe(400);
    expect((await missing.json()).error).toBe("invalid_input");
  });

  it("puts Open Graph, Twitter card and oEmbed discovery tags on shared model pages and embeds, none on a private one", async () => {
    const item = await page(`/item/${ids.public}`);
    const thumbnail = (await api("GET", `/item/${ids.public}`)).json.data.thumbnail_url as string;
    const image = `${app.url}${thumbnail}`.replace(/&/g, "&amp;");
    expect(item.text).toContain('<meta property="og:title" content="Oak chair — Scanroom"/>');
    expect(item.text).toContain(`<meta property="og:image" content="${image}"/>`);
    expect(item.text).toContain('<meta name="twitter:card" content="summary_large_image"/>');
    expect(item.text).toContain(`<meta name="twitter:image" content="${image}"/>`);
    const discovery = `${app.url}/oembed?url=${encodeURIComponent(`${app.url}/item/${ids.public}`)}&format=json`.replace(/&/g, "&amp;");
    expect(item.text).toContain(`<link rel="alternate" type="application/json+oembed" href="${discovery}" title="Oak chair"/>`);
    const embed = await page(`/embed/${ids.public}`);
    expect(embed.text).toContain('<meta property="og:title" content="Oak chair — Scanroom"/>');
    const own = await page(`/item/${ids.private}`, await sessionCookie(app.url, alice));
    expect(own.status).toBe(200);
    expect(own.text).not.toContain("og:title");
    expect(own.text).not.toContain("json+oembed");
  });
});
