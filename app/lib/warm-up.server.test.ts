import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { oembedDiscoveryHref } from "./oembed";
import { openSelfRequests, selfRequestOrigin } from "./self-requests.server";
import { warmUp as warmUpThrough, warmUpPaths, type WarmUpPlan } from "./warm-up.server";

const APP_URL = "https://scanroom.example";
/** Warms `handler` up as a web process warms itself: through its own requests. */
async function warmUp(handler: RequestListener, plan: WarmUpPlan) {
  const self = await openSelfRequests(handler, { atOnce: 2 });
  try {
    return await warmUpThrough(self, plan);
  } finally {
    await self.close();
  }
}

const ids = (count: number) => Array.from({ length: count }, (_, i) => `00000000-0000-4000-8000-${String(i + 1).padStart(12, "0")}`);

interface Asked {
  path: string;
  /** The link origin it is one of the process's own requests for (null: anyone else's). */
  selfOrigin: string | null;
  host: string | undefined;
  acceptEncoding: string | undefined;
}

/**
 * A site of `models` public models, most viewed first, that answers its list as GET /v1/items does (pages of at most
 * `limit`, a cursor to the next) and every other page 200, or `pageStatus`; after `pageDelayMs`. `asked` lists requests.
 */
function fakeSite({
  models,
  categories = [],
  pageStatus = 200,
  listStatus = 200,
  pageDelayMs = 0,
}: {
  models: string[];
  categories?: string[];
  pageStatus?: number;
  listStatus?: number;
  pageDelayMs?: number;
}) {
  const asked: Asked[] = [];
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    asked.push({ path: req.url!, selfOrigin: selfRequestOrigin(req), host: req.headers.host, acceptEncoding: req.headers["accept-encoding"] });
    const url = new URL(req.url!, "http://site");
    if (url.pathname === "/v1/items") {
      expect(url.searchParams.get("sort")).toBe("most_viewed");
      const from = Number(url.searchParams.get("cursor") ?? 0);
      const to = from + Number(url.searchParams.get("limit"));
      const data = { items: models.slice(from, to).map((id) => ({ id })), next_cursor: to < models.length ? String(to) : null };
      res.writeHead(listStatus, { "content-type": "application/json" }).end(JSON.stringify({ status: listStatus, data }));
      return;
    }
    if (url.pathname === "/v1/categories") {
      const data = categories.map((slug, order) => ({ id: `c${order}`, slug, name: slug, order }));
      res.writeHead(listStatus, { "content-type": "application/json" }).end(JSON.stringify({ status: listStatus, data }));
      return;
    }
    setTimeout(() => res.writeHead(pageStatus, { "content-type": "text/html" }).end("<html></html>"), pageDelayMs);
  };
  return { asked, handler };
}

describe("warmUpPaths", () => {
  it("names a model's page, its embed, and its oEmbed answer as the page's discovery link asks for it", () => {
    const [id] = ids(1);
    const discovery = new URL(oembedDiscoveryHref(APP_URL, id));
    expect(warmUpPaths(APP_URL, id)).toEqual([`/item/${id}`, `/embed/${id}`, `${discovery.pathname}${discovery.search}`]);
    expect(discovery.searchParams.get("url")).toBe(`${APP_URL}/item/${id}`);
  });
});

describe("warmUp", () => {
  it("asks for the front door, each of the most-viewed models' pages, then Explore's lists, on the site's public host, as a browser would", async () => {
    const models = ids(150);
    const site = fakeSite({ models, categories: ["vases", "old tools"] });
    const report = await warmUp(site.handler, { appUrl: APP_URL, models: 120, seconds: 30 });

    const lists = site.asked.filter((asked) => asked.path.startsWith("/v1/items"));
    expect(lists.map((asked) => new URL(asked.path, APP_URL).searchParams.get("limit"))).toEqual(["100", "20"]);
    const pages = site.asked.filter((asked) => !asked.path.startsWith("/v1/"));
    const explore = ["/", "/?sort=newest", "/?sort=most_viewed", "/?category=vases", "/?category=old+tools"];
    expect(pages.map((asked) => asked.path)).toEqual(["/", ...models.slice(0, 120).flatMap((id) => warmUpPaths(APP_URL, id)), ...explore]);
    expect(new Set(site.asked.map((asked) => asked.host))).toEqual(new Set(["scanroom.example"]));
    expect(new Set(site.asked.map((asked) => asked.selfOrigin))).toEqual(new Set([APP_URL]));
    expect(new Set(pages.map((asked) => asked.acceptEncoding))).toEqual(new Set(["gzip, deflate, br"]));
    expect(report).toMatchObject({ models: 120, pages: 366, failed: 0, complete: true });
  });

  it("takes its share of the models first when it warms beside others, most viewed first, then the rest", async () => {
    const models = ids(7);
    const modelPages = async (share: { slot: number; of: number }) => {
      const site = fakeSite({ models });
      await warmUp(site.handler, { appUrl: APP_URL, models: 7, seconds: 30, share, atOnce: 1 });
      return site.asked.filter((asked) => asked.path.startsWith("/item/")).map((asked) => models.indexOf(asked.path.slice("/item/".length)));
    };
    expect(await modelPages({ slot: 0, of: 2 })).toEqual([0, 2, 4, 6, 1, 3, 5]);
    expect(await modelPages({ slot: 1, of: 2 })).toEqual([1, 3, 5, 0, 2, 4, 6]);
    expect(await modelPages({ slot: 2, of: 3 })).toEqual([2, 5, 0, 1, 3, 4, 6]);
    expect(await modelPages({ slot: 0, of: 1 })).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it("keeps the end of its time for Explore's lists, which are kept only seconds, when the models would take it all", async () => {
    const site = fakeSite({ models: ids(50), categories: ["vases"], pageDelayMs: 40 });
    const report = await warmUp(site.handler, { appUrl: APP_URL, models: 50, seconds: 2, atOnce: 1 });
    const pages = site.asked.filter((asked) => !asked.path.startsWith("/v1/")).map((asked) => asked.path);
    process.stdout.write(`warm-up with 2 s: ${pages.length - 5} model pages, then ${pages.slice(-4).join(" ")}\n`);
    expect(report.complete).toBe(false);
    expect(pages.slice(-4)).toEqual(["/", "/?sort=newest", "/?sort=most_viewed", "/?category=vases"]);
    expect(pages.length - 5).toBeLessThan(150);
  });

  it("waits until changes are heard before it asks for pages, within its time", async () => {
    const site = fakeSite({ models: ids(1) });
    let heard = false;
    const heardAt = Date.now() + 300;
    setTimeout(() => (heard = true), 300);
    await warmUp((req, res) => {
      if (!heard) throw new Error(`asked for ${req.url} before changes were heard`);
      site.handler(req, res);
    }, { appUrl: APP_URL, models: 1, seconds: 30, heard: () => heard });
    expect(site.asked).toHaveLength(9);
    expect(Date.now()).toBeGreaterThanOrEqual(heardAt);
  });

  it("stops asking once its time is up, and says so", async () => {
    const site = fakeSite({ models: ids(50), pageDelayMs: 100 });
    const report = await warmUp(site.handler, { appUrl: APP_URL, models: 50, seconds: 0.5, atOnce: 1 });
    const pages = site.asked.filter((asked) => !asked.path.startsWith("/v1/"));
    process.stdout.write(`warm-up with 0.5 s: ${pages.length} pages asked for, ${report.pages} answered, in ${report.seconds} s\n`);
    expect(report.complete).toBe(false);
    // The page its time cut short is not counted as failed.
    expect(report.failed).toBe(0);
    expect(pages.length).toBeGreaterThan(0);
    expect(pages.length).toBeLessThan(151);
    expect(report.seconds).toBeLessThan(2);
  });

  it("never fails the start: a list it cannot read leaves the front door; pages answered otherwise are counted as failed", async () => {
    const unlisted = fakeSite({ models: ids(3), listStatus: 503 });
    expect(await warmUp(unlisted.handler, { appUrl: APP_URL, models: 3, seconds: 30 })).toMatchObject({ models: 0, pages: 4, failed: 0, complete: true });
    expect(unlisted.asked.map((asked) => asked.path).filter((path) => !path.startsWith("/v1/"))).toEqual(["/", "/", "/?sort=newest", "/?sort=most_viewed"]);

    const broken = fakeSite({ models: ids(2), pageStatus: 500 });
    expect(await warmUp(broken.handler, { appUrl: APP_URL, models: 2, seconds: 30 })).toMatchObject({ models: 2, pages: 0, failed: 10, complete: true });
  });

  it("asks for nothing with no time to do it in", async () => {
    const site = fakeSite({ models: ids(2) });
    expect(await warmUp(site.handler, { appUrl: APP_URL, models: 2, seconds: 0 })).toMatchObject({ pages: 0, complete: true });
    expect(site.asked).toEqual([]);
  });
});
