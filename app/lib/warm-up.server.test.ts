import { createServer, get, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { oembedDiscoveryHref } from "./oembed";
import { arrivedForWarmUp, warmUp, warmUpPaths } from "./warm-up.server";

const APP_URL = "https://scanroom.example";
const ids = (count: number) => Array.from({ length: count }, (_, i) => `00000000-0000-4000-8000-${String(i + 1).padStart(12, "0")}`);

interface Asked {
  path: string;
  /** What the server's link origin rule is told of it. */
  forWarmUp: boolean;
  host: string | undefined;
  acceptEncoding: string | undefined;
}

/**
 * A site of `models` public models, most viewed first, that answers its list as GET /v1/items does (pages of at most
 * `limit`, a cursor to the next) and every other page 200, or `pageStatus`; after `pageDelayMs`. `asked` lists requests.
 */
function fakeSite({ models, pageStatus = 200, listStatus = 200, pageDelayMs = 0 }: { models: string[]; pageStatus?: number; listStatus?: number; pageDelayMs?: number }) {
  const asked: Asked[] = [];
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    asked.push({ path: req.url!, forWarmUp: arrivedForWarmUp(req), host: req.headers.host, acceptEncoding: req.headers["accept-encoding"] });
    const url = new URL(req.url!, "http://site");
    if (url.pathname === "/v1/items") {
      expect(url.searchParams.get("sort")).toBe("most_viewed");
      const from = Number(url.searchParams.get("cursor") ?? 0);
      const to = from + Number(url.searchParams.get("limit"));
      const data = { items: models.slice(from, to).map((id) => ({ id })), next_cursor: to < models.length ? String(to) : null };
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
  it("asks for the front door, then each of the most-viewed models' pages, on the site's public host, as a browser would", async () => {
    const models = ids(150);
    const site = fakeSite({ models });
    const report = await warmUp(site.handler, { appUrl: APP_URL, models: 120, seconds: 30, startAt: 0 });

    const lists = site.asked.filter((asked) => asked.path.startsWith("/v1/items"));
    expect(lists.map((asked) => new URL(asked.path, APP_URL).searchParams.get("limit"))).toEqual(["100", "20"]);
    const pages = site.asked.filter((asked) => !asked.path.startsWith("/v1/items"));
    expect(pages.map((asked) => asked.path)).toEqual(["/", ...models.slice(0, 120).flatMap((id) => warmUpPaths(APP_URL, id))]);
    expect(new Set(site.asked.map((asked) => asked.host))).toEqual(new Set(["scanroom.example"]));
    expect(new Set(site.asked.map((asked) => asked.forWarmUp))).toEqual(new Set([true]));
    expect(new Set(pages.map((asked) => asked.acceptEncoding))).toEqual(new Set(["gzip, deflate, br"]));
    expect(report).toMatchObject({ models: 120, pages: 361, failed: 0, complete: true });
  });

  it("begins where it is told in the list of models, and goes round it", async () => {
    const models = ids(4);
    const site = fakeSite({ models });
    await warmUp(site.handler, { appUrl: APP_URL, models: 4, seconds: 30, startAt: 0.5, atOnce: 1 });
    const modelPages = site.asked.filter((asked) => asked.path.startsWith("/item/")).map((asked) => asked.path.slice("/item/".length));
    expect(modelPages).toEqual([models[2], models[3], models[0], models[1]]);
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
    expect(site.asked).toHaveLength(5);
    expect(Date.now()).toBeGreaterThanOrEqual(heardAt);
  });

  it("stops asking once its time is up, and says so", async () => {
    const site = fakeSite({ models: ids(50), pageDelayMs: 100 });
    const report = await warmUp(site.handler, { appUrl: APP_URL, models: 50, seconds: 0.5, atOnce: 1 });
    const pages = site.asked.filter((asked) => !asked.path.startsWith("/v1/items"));
    process.stdout.write(`warm-up with 0.5 s: ${pages.length} pages asked for, ${report.pages} answered, in ${report.seconds} s\n`);
    expect(report.complete).toBe(false);
    expect(pages.length).toBeGreaterThan(0);
    expect(pages.length).toBeLessThan(151);
    expect(report.seconds).toBeLessThan(2);
  });

  it("never fails the start: a list it cannot read leaves the front door; pages answered otherwise are counted as failed", async () => {
    const unlisted = fakeSite({ models: ids(3), listStatus: 503 });
    expect(await warmUp(unlisted.handler, { appUrl: APP_URL, models: 3, seconds: 30 })).toMatchObject({ models: 0, pages: 1, failed: 0, complete: true });
    expect(unlisted.asked.map((asked) => asked.path).filter((path) => !path.startsWith("/v1/items"))).toEqual(["/"]);

    const broken = fakeSite({ models: ids(2), pageStatus: 500 });
    expect(await warmUp(broken.handler, { appUrl: APP_URL, models: 2, seconds: 30 })).toMatchObject({ models: 2, pages: 0, failed: 7, complete: true });
  });

  it("tells its own requests from anyone else's, whatever they send", async () => {
    const seen: boolean[] = [];
    const other = createServer((req, res) => (seen.push(arrivedForWarmUp(req)), res.end()));
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    await new Promise<void>((resolve, reject) =>
      get({ port: (other.address() as AddressInfo).port, host: "127.0.0.1", path: "/", headers: { host: "scanroom.example", "accept-encoding": "gzip, deflate, br" } }, (res) =>
        res.resume().on("end", resolve),
      ).on("error", reject),
    );
    await new Promise((resolve) => other.close(resolve));
    expect(seen).toEqual([false]);
  });

  it("asks for nothing with no time to do it in", async () => {
    const site = fakeSite({ models: ids(2) });
    expect(await warmUp(site.handler, { appUrl: APP_URL, models: 2, seconds: 0 })).toMatchObject({ pages: 0, complete: true });
    expect(site.asked).toEqual([]);
  });
});
