import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { SHARED_PAGES_CHANNEL } from "~/lib/shared-page-changes.server";
import { SHARED_PAGE_SECONDS } from "~/lib/public-page-cache";
import { createIdentity, type TestIdentity } from "../setup/firebase-users";
import { serveAppForFile } from "../setup/served-app";
import { SHARED_DATA } from "../setup/shared-data";
import { sessionCookie } from "../setup/site-session";
import { uploadReadyModel, waitForAutomaticThumbnail } from "../setup/upload-model";

// Issue 37: signed-out visitors' pages are rendered once and shared for SHARED_PAGE_SECONDS (decision 045),
// each copy with its own CSP nonce and request id, gzipped from one compression (decision 056); signed-in people never get or make a shared copy; a change
// reaches signed-out visitors within that time, and a model's pages are kept past it until what they show changes
// (decision 057); every copy of a model page counts its view.

// On here, as in the product (the other test files turn it off: tests/setup/per-file-database.ts).
process.env.SHARED_PAGE_CACHE_MB = "64";
const glb = readFileSync(path.join(SHARED_DATA, "models/SpecularTest.glb"));
const app = serveAppForFile();
const api = app.api;
let owner: TestIdentity;
let visitor: TestIdentity;

beforeAll(async () => {
  [owner, visitor] = await Promise.all([createIdentity({ name: "Cache Owner" }), createIdentity({ name: "Signed-in Visitor" })]);
});

async function page(pathName: string, cookie?: string, acceptEncoding?: string) {
  const headers: Record<string, string> = { ...(cookie ? { Cookie: cookie } : {}), ...(acceptEncoding ? { "Accept-Encoding": acceptEncoding } : {}) };
  const response = await fetch(`${app.url}${pathName}`, { headers, redirect: "manual" });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const nonceOf = (answer: { headers: Headers }) => /'nonce-([^']+)'/.exec(answer.headers.get("content-security-policy") ?? "")?.[1];
const views = async (itemId: string) => (await api("GET", `/item/${itemId}`, { token: owner.idToken })).json.data.view_count as number;
const upload = (name: string) => uploadReadyModel(api, owner, { bytes: glb, modelType: "glb", name, visibility: "public" });

describe("the shared page cache", () => {
  it("gives signed-out visitors one rendering of a model page, each copy with a fresh nonce and request id", async () => {
    const itemId = await upload("Shared page");
    const first = await page(`/item/${itemId}`);
    const second = await page(`/item/${itemId}`);
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe(`public, max-age=0, s-maxage=${SHARED_PAGE_SECONDS}`);
    expect(first.headers.get("age")).toBeNull();
    expect(Number(second.headers.get("age"))).toBeGreaterThanOrEqual(0);
    expect(second.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    // The copy is the same page, with a nonce of its own in its policy and in its scripts, and never the first one's.
    const [a, b] = [nonceOf(first)!, nonceOf(second)!];
    expect(a).toBeTruthy();
    expect(b).toBeTruthy();
    expect(b).not.toBe(a);
    expect(second.text).toContain(`nonce="${b}"`);
    expect(second.text).not.toContain(a);
    expect(second.text.replaceAll(b, a)).toBe(first.text);
    // The first rendering and its copies go out gzipped from one compression of the page (decisions 056, 067), or
    // plain to a client that takes no gzip.
    expect(first.headers.get("content-encoding")).toBe("gzip");
    expect(second.headers.get("content-encoding")).toBe("gzip");
    expect(second.headers.get("vary")).toMatch(/accept-encoding/i);
    const plain = await page(`/item/${itemId}`, undefined, "identity");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.text.replaceAll(nonceOf(plain)!, a)).toBe(first.text);
    // The header naming the counted view stays between the page and the cache.
    expect(first.headers.get("x-scanroom-counts-view")).toBeNull();
    expect(second.headers.get("x-scanroom-counts-view")).toBeNull();
    // Explore's data requests are shared too; oEmbed answers are.
    const explore = "/?index&_data=routes%2F_index";
    await page(explore);
    expect((await page(explore)).headers.get("age")).not.toBeNull();
    const oembed = `/oembed?format=json&url=${encodeURIComponent(`${app.url}/item/${itemId}`)}`;
    await page(oembed);
    expect((await page(oembed)).headers.get("age")).not.toBeNull();
  });

  it("counts a view for every copy of a model page it gives out", async () => {
    const itemId = await upload("Counted copies");
    for (let i = 0; i < 3; i++) expect((await page(`/item/${itemId}`)).status).toBe(200);
    await expect.poll(() => views(itemId), { timeout: 10_000 }).toBe(3);
  });

  it("never gives a signed-in person a shared copy, nor shares their page", async () => {
    const itemId = await upload("Signed-in page");
    await page(`/item/${itemId}`);
    const cookie = await sessionCookie(app.url, visitor);
    const signedIn = await page(`/item/${itemId}`, cookie);
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get("age")).toBeNull();
    expect(signedIn.headers.get("cache-control")).toBe("private, no-cache");
    // A page first asked for by a signed-in person is not kept: the next signed-out visitor gets one rendered for them.
    const fresh = `/item/${itemId}?from=signed-in`;
    await page(fresh, cookie);
    expect((await page(fresh)).headers.get("age")).toBeNull();
    expect((await page(fresh)).headers.get("age")).not.toBeNull();
    // A registered embed counts its loads: never shared.
    const embed = `/embed/${itemId}?embed_id=${crypto.randomUUID()}`;
    await page(embed);
    expect((await page(embed)).headers.get("age")).toBeNull();
  });

  it(`keeps a model's pages past ${SHARED_PAGE_SECONDS} s until what they show changes: the model, its owner`, async () => {
    const [changing, unchanged] = await Promise.all([upload("Soon private"), upload("Left alone")]);
    // The automatic thumbnails change the models (and so their pages) once more: done before the pages are kept.
    await Promise.all([changing, unchanged].map((id) => waitForAutomaticThumbnail(api, owner, id)));
    const pages = (id: string) => [`/item/${id}`, `/embed/${id}`, `/oembed?format=json&url=${encodeURIComponent(`${app.url}/item/${id}`)}`];
    for (const id of [changing, unchanged]) for (const path of pages(id)) expect((await page(path)).status).toBe(200);
    // Its downloads read the model's record the web process keeps (decision 066): also until it changes.
    const download = `/v1/item/${changing}/file`;
    expect((await fetch(`${app.url}${download}`)).status).toBe(200);
    // A list, which cannot name what it shows, is kept for its s-maxage only.
    const list = "/?sort=newest";
    expect((await page(list)).headers.get("age")).toBeNull();
    // Past s-maxage, nothing changed but view counts (added every second, never a change to the page): still the kept copies.
    await new Promise((resolve) => setTimeout(resolve, (SHARED_PAGE_SECONDS + 1) * 1000));
    for (const path of pages(unchanged)) expect(Number((await page(path)).headers.get("age")), path).toBeGreaterThan(SHARED_PAGE_SECONDS);
    // The list expired: its next visitor gets the expired copy at once while it is rendered again for no one
    // (decision 069), and the visitors after get the new render.
    const expired = await page(list);
    expect(expired.status).toBe(200);
    expect(Number(expired.headers.get("age"))).toBeGreaterThan(SHARED_PAGE_SECONDS);
    await expect.poll(async () => Number((await page(list)).headers.get("age")), { timeout: 5_000, interval: 100 }).toBeLessThan(SHARED_PAGE_SECONDS);

    // The model made private: its pages go at once for everyone (PostgreSQL's notice reaches the cache), within
    // s-maxage at worst; the other model's are still kept.
    const made = await api("PATCH", `/item/${changing}`, { token: owner.idToken, body: { visibility: "private" } });
    expect(made.status).toBe(200);
    const cookie = await sessionCookie(app.url, visitor);
    expect((await page(`/item/${changing}`, cookie)).status).toBe(404);
    const started = Date.now();
    for (const path of pages(changing)) {
      await expect.poll(async () => (await page(path)).status, { timeout: SHARED_PAGE_SECONDS * 1000, interval: 100 }).toBe(404);
    }
    await expect.poll(async () => (await fetch(`${app.url}${download}`)).status, { timeout: SHARED_PAGE_SECONDS * 1000, interval: 100 }).toBe(404);
    expect((await fetch(`${app.url}${download}`, { headers: { Authorization: `Bearer ${owner.idToken}` } })).status).toBe(200);
    process.stdout.write(`a model made private left signed-out visitors' three pages and its download after ${((Date.now() - started) / 1000).toFixed(1)} s (bound ${SHARED_PAGE_SECONDS} s)\n`);
    expect(Number((await page(`/item/${unchanged}`)).headers.get("age"))).toBeGreaterThan(SHARED_PAGE_SECONDS);

    // The owner renamed: every page of theirs is rendered again (no Age: not a kept copy), and shows the new name.
    const renamed = await api("PATCH", "/user", { token: owner.idToken, body: { display_name: "Renamed Owner" } });
    expect(renamed.status).toBe(200);
    for (const path of pages(unchanged)) {
      await expect.poll(async () => (await page(path)).headers.get("age"), { timeout: SHARED_PAGE_SECONDS * 1000, interval: 100 }).toBeNull();
    }
    const [modelPage, , oembed] = pages(unchanged);
    expect((await page(modelPage)).text).toContain("Renamed Owner");
    expect(JSON.parse((await page(oembed)).text).author_name).toBe("Renamed Owner");
});
  it("shows signed-out visitors a model's new annotation and its owner's new plan once they are heard, not the kept ones", async () => {
    const itemId = await upload("Annotated later");
    await waitForAutomaticThumbnail(api, owner, itemId);
    const embed = `/embed/${itemId}`;
    const first = (await page(embed)).text;
    expect(first).toContain("Made with Scanroom");
    expect(first).not.toContain("A note added later");
    // The annotation: the model's page and embed are rendered again with it, not with the list kept before (decision 066).
    const noted = await api("POST", `/item/${itemId}/annotations`, { token: owner.idToken, body: { title: "A note added later", position: [0.1, 0.2, 0.3], normal: [0, 0, 1] } });
    expect(noted.status).toBe(200);
    for (const path of [embed, `/item/${itemId}`]) {
      await expect.poll(async () => (await page(path)).text, { timeout: SHARED_PAGE_SECONDS * 1000, interval: 100 }).toContain("A note added later");
    }
    // A plan with watermark removal, then the watermark turned off: the embed is shown by the new plan, not the kept one.
    const { db } = await import("~/db.server");
    const growth = await db().plan.findUniqueOrThrow({ where: { planType: "growth" } });
    const ownerId = (await api("GET", "/user", { token: owner.idToken })).json.data.user.id as string;
    await db().subscription.update({ where: { userId: ownerId }, data: { planId: growth.id, status: "active" } });
    const off = await api("PATCH", `/item/${itemId}/embed/watermark`, { token: owner.idToken, body: { is_watermark_enabled: false } });
    expect(off.status).toBe(200);
    await expect.poll(async () => (await page(embed)).text, { timeout: SHARED_PAGE_SECONDS * 1000, interval: 100 }).not.toContain("Made with Scanroom");
    // The plan lapses: the watermark is back, though the model did not change.
    await db().subscription.update({ where: { userId: ownerId }, data: { status: "past_due" } });
    await expect.poll(async () => (await page(embed)).text, { timeout: SHARED_PAGE_SECONDS * 1000, interval: 100 }).toContain("Made with Scanroom");
  });

  it("forgets what it kept when its connection to PostgreSQL's notices is cut, listens again, and keeps pages again", async () => {
    const itemId = await upload("Across a lost connection");
    await waitForAutomaticThumbnail(api, owner, itemId);
    await page(`/item/${itemId}`);
    expect((await page(`/item/${itemId}`)).headers.get("age")).not.toBeNull();
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      const listeners = async () =>
        (await admin.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = $1", [`LISTEN ${SHARED_PAGES_CHANNEL}`])).rows.map(
          (row) => row.pid,
        );
      const [cut] = await listeners();
      expect(cut).toBeDefined();
      await admin.query("SELECT pg_terminate_backend($1)", [cut]);
      await expect.poll(async () => (await listeners()).filter((pid) => pid !== cut).length, { timeout: 15_000, interval: 100 }).toBe(1);
    } finally {
      await admin.end();
    }
    // Give the listener the moment between its LISTEN and saying it is live.
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Nothing changed, but nobody heard for a while: the page is rendered again, and kept on trust again.
    expect((await page(`/item/${itemId}`)).headers.get("age")).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, (SHARED_PAGE_SECONDS + 1) * 1000));
    expect(Number((await page(`/item/${itemId}`)).headers.get("age"))).toBeGreaterThan(SHARED_PAGE_SECONDS);
  });
});
