import { describe, expect, it } from "vitest";
import { sharedMaxAge, type RenderNotice, type SharedPage, type SharedPageCacheOptions } from "./shared-page-cache.server";

describe("sharedMaxAge", () => {
  it("reads s-maxage of public answers only", () => {
    expect(sharedMaxAge("public, max-age=0, s-maxage=10")).toBe(10);
    expect(sharedMaxAge("Public, S-MaxAge=3600")).toBe(3600);
    expect(sharedMaxAge("public, max-age=3600")).toBe(0);
    expect(sharedMaxAge("private, s-maxage=10")).toBe(0);
    expect(sharedMaxAge("public, no-store, s-maxage=10")).toBe(0);
    expect(sharedMaxAge("s-maxage=10")).toBe(0);
    expect(sharedMaxAge("public, s-maxage=abc")).toBe(0);
    expect(sharedMaxAge(undefined)).toBe(0);
  });
});

describe("pages kept until what they show changes", () => {
  // A real express app and HTTP server around the cache; the page's renderer counts its renders and may be held.
  async function harness({ backgroundRefresh = false, ...options }: Pick<SharedPageCacheOptions, "announce" | "siblingWaitMs"> & { backgroundRefresh?: boolean } = {}) {
    const { default: express } = await import("express");
    const { createServer } = await import("node:http");
    const { SHOWS_HEADER, VIEW_HEADER } = await import("./public-page-cache");
    const { sharedPageCache } = await import("./shared-page-cache.server");
    const { createSharedChangesHub } = await import("./shared-changes-hub.server");
    let clock = 1_000_000;
    let live = true;
    const changes = createSharedChangesHub();
    changes.setLive(() => live);
    let renders = 0;
    let hold: Promise<void> | null = null;
    let port = 0;
    // A refresh asks the server again with a mark, as app/lib/self-requests.server.ts does with its secret.
    const refresh: SharedPageCacheOptions["refresh"] = {
      render: (req) => void fetch(`http://127.0.0.1:${port}${req.originalUrl}`, { headers: { "x-refresh": "1" } }).then((answer) => answer.text()),
      isRefresh: (req) => req.headers["x-refresh"] === "1",
    };
    const views: string[] = [];
    const cache = sharedPageCache({
      maxBytes: 1 << 20,
      onView: (itemId) => void views.push(itemId),
      changes,
      keptSeconds: 300,
      now: () => clock,
      ...(backgroundRefresh ? { refresh } : {}),
      ...options,
    });
    const app = express();
    app.use((_req, res, next) => ((res.locals.linkOrigin = "http://test"), next()));
    app.use(cache);
    app.get("/page/:id", async (req, res) => {
      renders += 1;
      const render = renders;
      if (hold) await hold;
      res.setHeader("Cache-Control", "public, max-age=0, s-maxage=10");
      res.setHeader(SHOWS_HEADER, `item:${req.params.id} user:owner`);
      res.type("text/html").send(`<p>render ${render}</p>`);
    });
    // A list that cannot name what it shows (kept for its s-maxage), and a page that counts a view for each copy.
    app.get(["/list", "/viewed"], async (req, res) => {
      renders += 1;
      const render = renders;
      if (hold) await hold;
      res.setHeader("Cache-Control", "public, max-age=0, s-maxage=10");
      if (req.path === "/viewed") res.setHeader(VIEW_HEADER, "a");
      res.type("text/html").send(`<p>render ${render}</p>`);
    });
    app.get("/mine/:id", async (_req, res) => {
      renders += 1;
      const render = renders;
      if (hold) await hold;
      res.setHeader("Cache-Control", "private, no-cache");
      res.type("text/html").send(`<p>render ${render}</p>`);
    });
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    port = (server.address() as { port: number }).port;
    const get = async (path: string) => {
      const response = await fetch(`http://127.0.0.1:${port}${path}`);
      return { text: await response.text(), shows: response.headers.get(SHOWS_HEADER) };
    };
    return {
      cache,
      get,
      renders: () => renders,
      /** The items whose views the cache counted, one per copy given out. */
      views: () => [...views],
      now: () => clock,
      advance: (seconds: number) => void (clock += seconds * 1000),
      /** A change heard by the hub, as PostgreSQL's notice would bring it. */
      change: (shows: string) => changes.changed(shows),
      /** Whether every change is heard: pages are kept past their s-maxage only while it is. */
      setLive: (value: boolean) => void (live = value),
      holdRenders: () => {
        let release!: () => void;
        hold = new Promise<void>((resolve) => (release = resolve));
        return () => ((hold = null), release());
      },
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  it("keeps a page past its s-maxage until a change names what it shows, and never sends the header", async () => {
    const h = await harness();
    expect((await h.get("/page/a")).text).toBe("<p>render 1</p>");
    await h.get("/page/b");
    h.advance(60);
    const kept = await h.get("/page/a");
    expect(kept.text).toBe("<p>render 1</p>");
    expect(kept.shows).toBeNull();
    h.change("item:a");
    expect((await h.get("/page/a")).text).toBe("<p>render 3</p>");
    expect((await h.get("/page/b")).text).toBe("<p>render 2</p>");
    // The owner's change reaches every page of theirs; 'all' every kept page.
    h.change("user:owner");
    expect((await h.get("/page/b")).text).toBe("<p>render 4</p>");
    h.change("all");
    expect((await h.get("/page/a")).text).toBe("<p>render 5</p>");
    await h.close();
  });

  it("keeps one page for a query whatever the order or spelling of its parameters, and apart for other values", async () => {
    const h = await harness();
    expect((await h.get("/page/a?format=json&url=http%3A%2F%2Ftest%2Fitem%2Fa")).text).toBe("<p>render 1</p>");
    expect((await h.get("/page/a?url=http://test/item/a&format=json")).text).toBe("<p>render 1</p>");
    expect((await h.get("/page/a?url=http://test/item/b&format=json")).text).toBe("<p>render 2</p>");
    // Repeated names keep their order: a different list is a different page.
    expect((await h.get("/page/a?tag=x&tag=y")).text).toBe("<p>render 3</p>");
    expect((await h.get("/page/a?tag=y&tag=x")).text).toBe("<p>render 4</p>");
    expect((await h.get("/page/a?q=red+fox")).text).toBe("<p>render 5</p>");
    expect((await h.get("/page/a?q=red%20fox")).text).toBe("<p>render 5</p>");
    expect(h.renders()).toBe(5);
    await h.close();
  });

  it("renders an expired copy again in the background while visitors get it, at most its grace after it expired", async () => {
    const h = await harness({ backgroundRefresh: true });
    expect((await h.get("/list")).text).toBe("<p>render 1</p>");
    h.advance(11);
    const release = h.holdRenders();
    // The visitor after it expired gets it at once, its refresh renders meanwhile, and the next visitors get it too.
    expect((await h.get("/list")).text).toBe("<p>render 1</p>");
    expect((await h.get("/list")).text).toBe("<p>render 1</p>");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(h.renders()).toBe(2);
    release();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await h.get("/list")).text).toBe("<p>render 2</p>");
    // Long expired (past its grace): the visitor renders it, as nobody has it.
    h.advance(21);
    expect((await h.get("/list")).text).toBe("<p>render 3</p>");
    expect(h.renders()).toBe(3);
    await h.close();
  });

  it("renders a page that counts views again in the background too, counting the view of each copy given out", async () => {
    const h = await harness({ backgroundRefresh: true });
    expect((await h.get("/viewed")).text).toBe("<p>render 1</p>");
    h.advance(11);
    // Expired: its visitor gets the copy, which counts a view; the refresh renders for no one and counts none.
    expect((await h.get("/viewed")).text).toBe("<p>render 1</p>");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(h.renders()).toBe(2);
    expect(h.views()).toEqual(["a"]);
    expect((await h.get("/viewed")).text).toBe("<p>render 2</p>");
    expect(h.views()).toEqual(["a", "a"]);
    await h.close();
  });

  it("renders an expired copy in its visitor's request when it has no way to refresh it", async () => {
    const h = await harness();
    expect((await h.get("/list")).text).toBe("<p>render 1</p>");
    h.advance(11);
    expect((await h.get("/list")).text).toBe("<p>render 2</p>");
    await h.close();
  });

  it("keeps pages until changed for between half and all of the time kept, each by its key, spread over it", async () => {
    const { keptSecondsOf } = await import("./shared-page-cache.server");
    const kept = Array.from({ length: 1000 }, (_, i) => keptSecondsOf(`http://test /item/${i}`, 300));
    expect(keptSecondsOf("http://test /item/7", 300)).toBe(kept[7]);
    expect(Math.min(...kept)).toBeGreaterThanOrEqual(150);
    expect(Math.max(...kept)).toBeLessThanOrEqual(300);
    // Spread: each sixth of the span holds about a sixth of the pages.
    const sixths = Array.from({ length: 6 }, (_, k) => kept.filter((s) => s >= 150 + 25 * k && s < 175 + 25 * k).length);
    for (const count of sixths) expect(count).toBeGreaterThan(120);
    // A page is kept past the shortest share, and forgotten past all of it.
    const h = await harness();
    await h.get("/page/a");
    h.advance(149);
    expect((await h.get("/page/a")).text).toBe("<p>render 1</p>");
    h.advance(152);
    expect((await h.get("/page/a")).text).toBe("<p>render 2</p>");
    await h.close();
  });

  it("keeps a render that a change overtook only for its s-maxage", async () => {
    const h = await harness();
    const release = h.holdRenders();
    const pending = h.get("/page/a");
    await new Promise((resolve) => setTimeout(resolve, 50));
    h.change("item:a");
    release();
    expect((await pending).text).toBe("<p>render 1</p>");
    expect((await h.get("/page/a")).text).toBe("<p>render 1</p>");
    h.advance(11);
    expect((await h.get("/page/a")).text).toBe("<p>render 2</p>");
    // Rendered after the change: kept on trust again.
    h.advance(60);
    expect((await h.get("/page/a")).text).toBe("<p>render 2</p>");
    await h.close();
  });

  it("forgets what it kept on trust when changes go unheard, and keeps only for s-maxage while they are", async () => {
    const h = await harness();
    await h.get("/page/a");
    h.setLive(false);
    h.change("all");
    expect((await h.get("/page/a")).text).toBe("<p>render 2</p>");
    h.advance(11);
    expect((await h.get("/page/a")).text).toBe("<p>render 3</p>");
    await h.close();
  });

  it("renders a page nobody has asked for yet once for the crowd asking at once, and gives each of them a copy", async () => {
    const h = await harness();
    const release = h.holdRenders();
    const crowd = Array.from({ length: 6 }, () => h.get("/page/new"));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(h.renders()).toBe(1);
    release();
    expect((await Promise.all(crowd)).map((answer) => answer.text)).toEqual(Array(6).fill("<p>render 1</p>"));
    expect(h.renders()).toBe(1);
    await h.close();
  });

  it("does not hold a crowd back for a page it could not keep: once seen, its requests render side by side", async () => {
    const h = await harness();
    expect((await h.get("/mine/a")).text).toBe("<p>render 1</p>");
    const release = h.holdRenders();
    const crowd = Array.from({ length: 3 }, () => h.get("/mine/a"));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(h.renders()).toBe(4);
    release();
    expect(new Set((await Promise.all(crowd)).map((answer) => answer.text))).toEqual(new Set(["<p>render 2</p>", "<p>render 3</p>", "<p>render 4</p>"]));
    await h.close();
  });

  describe("pages another web process rendered", () => {
    /** What a sibling web process gives for /page/<id> (its `share`), rendered from `renderStartedAt` and stored at `storedAt`. */
    const siblingPage = (id: string, { renderStartedAt, storedAt }: { renderStartedAt: number; storedAt: number }): SharedPage => ({
      key: `http://test /page/${id}`,
      copy: {
        status: 200,
        headers: [
          ["content-type", "text/html; charset=utf-8"],
          ["cache-control", "public, max-age=0, s-maxage=10"],
        ],
        body: `<p>sibling's ${id}</p>`,
        nonce: null,
        view: null,
        shows: [`item:${id}`, "user:owner"],
        storedAt,
      },
      renderStartedAt,
      seconds: 10,
    });

    it("gives copies of a sibling's page without rendering it, kept until a change names what it shows", async () => {
      const h = await harness();
      h.cache.receive(siblingPage("a", { renderStartedAt: h.now() - 80, storedAt: h.now() }));
      expect((await h.get("/page/a")).text).toBe("<p>sibling's a</p>");
      h.advance(60);
      expect((await h.get("/page/a")).text).toBe("<p>sibling's a</p>");
      expect(h.renders()).toBe(0);
      h.change("user:owner");
      expect((await h.get("/page/a")).text).toBe("<p>render 1</p>");
      await h.close();
    });

    it("keeps a sibling's page only for its s-maxage when a change to what it shows was heard after its render started", async () => {
      const h = await harness();
      const renderStartedAt = h.now();
      h.advance(0.05);
      h.change("item:b");
      h.advance(0.05);
      h.cache.receive(siblingPage("b", { renderStartedAt, storedAt: h.now() }));
      expect((await h.get("/page/b")).text).toBe("<p>sibling's b</p>");
      h.advance(11);
      expect((await h.get("/page/b")).text).toBe("<p>render 1</p>");
      // A change heard before the render started is in it: kept on trust.
      h.advance(1);
      h.cache.receive(siblingPage("b", { renderStartedAt: h.now(), storedAt: h.now() + 50 }));
      h.advance(60);
      expect((await h.get("/page/b")).text).toBe("<p>sibling's b</p>");
      await h.close();
    });

    it("waits for a page a sibling said it is rendering and gives the crowd copies of the sibling's render", async () => {
      const h = await harness();
      const key = "http://test /page/d";
      h.cache.heard({ key, rendering: true });
      const crowd = Array.from({ length: 3 }, () => h.get("/page/d"));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(h.renders()).toBe(0);
      h.cache.receive(siblingPage("d", { renderStartedAt: h.now() - 30, storedAt: h.now() }));
      h.cache.heard({ key, rendering: false });
      expect((await Promise.all(crowd)).map((answer) => answer.text)).toEqual(Array(3).fill("<p>sibling's d</p>"));
      expect(h.renders()).toBe(0);
      await h.close();
    });

    it("renders the page itself when the sibling's render ends without a copy, or its end is never heard", async () => {
      const h = await harness({ siblingWaitMs: 300 });
      h.cache.heard({ key: "http://test /page/e", rendering: true });
      const ended = h.get("/page/e");
      await new Promise((resolve) => setTimeout(resolve, 50));
      h.cache.heard({ key: "http://test /page/e", rendering: false });
      expect((await ended).text).toBe("<p>render 1</p>");
      h.cache.heard({ key: "http://test /page/f", rendering: true });
      const unheard = h.get("/page/f");
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(h.renders()).toBe(1);
      expect((await unheard).text).toBe("<p>render 2</p>");
      await h.close();
    });

    it("gives its expired copy while a sibling renders the page again", async () => {
      const h = await harness();
      h.setLive(false);
      expect((await h.get("/page/g")).text).toBe("<p>render 1</p>");
      h.advance(11);
      h.cache.heard({ key: "http://test /page/g", rendering: true });
      expect((await h.get("/page/g")).text).toBe("<p>render 1</p>");
      expect(h.renders()).toBe(1);
      h.cache.heard({ key: "http://test /page/g", rendering: false });
      expect((await h.get("/page/g")).text).toBe("<p>render 2</p>");
      await h.close();
    });

    it("tells its siblings when it starts and ends the renders they would wait for, and not those of pages it cannot keep", async () => {
      const notices: RenderNotice[] = [];
      const h = await harness({ announce: (notice) => notices.push(notice) });
      h.setLive(false);
      await h.get("/page/h");
      h.advance(11);
      await h.get("/page/h");
      await h.get("/mine/h");
      await h.get("/mine/h");
      await new Promise((resolve) => setTimeout(resolve, 50));
      const onPage = (path: string) => notices.filter((notice) => notice.key === `http://test ${path}`).map((notice) => notice.rendering);
      expect(onPage("/page/h")).toEqual([true, false, true, false]);
      // Seen once as a page not kept, its later renders go unannounced: nobody waits for them.
      expect(onPage("/mine/h")).toEqual([true, false]);
      await h.close();
    });

    it("keeps its own copy when it is newer than the sibling's", async () => {
      const h = await harness();
      const before = h.now() - 1000;
      expect((await h.get("/page/c")).text).toBe("<p>render 1</p>");
      h.cache.receive(siblingPage("c", { renderStartedAt: before - 100, storedAt: before }));
      expect((await h.get("/page/c")).text).toBe("<p>render 1</p>");
      await h.close();
    });
  });
});

describe("a page's first render", () => {
  // The page's parts as the route writes them ('large': past what the cache keeps, 1 MiB, so it streams).
  const pageParts = (kind: string) => [...Array.from({ length: 30 }, (_, i) => `<p>part ${i} ${"·".repeat(kind === "large" ? 40_000 : 100)}</p>\n`), "<p>the end</p>"];
  const page = (kind: string) => pageParts(kind).join("");

  // The cache behind the compression middleware, as in server.ts; the page is written in chunks, each flushed, as Remix streams it.
  async function streamingServer() {
    const { default: express } = await import("express");
    const { default: compression } = await import("compression");
    const { createServer, request } = await import("node:http");
    const { sharedPageCache } = await import("./shared-page-cache.server");
    const cache = sharedPageCache({ maxBytes: 16 << 20, onView: () => {} });
    const app = express();
    app.use((_req, res, next) => ((res.locals.linkOrigin = "http://test"), next()));
    app.use(compression());
    app.use(cache);
    app.get("/streamed/:kind", (req, res) => {
      const kind = req.params.kind;
      res.setHeader("Cache-Control", kind === "private" ? "private, no-cache" : "public, max-age=0, s-maxage=10");
      res.type("text/html");
      const parts = pageParts(kind);
      for (const part of parts.slice(0, -1)) {
        res.write(part);
        (res as unknown as { flush(): void }).flush();
      }
      res.end(parts.at(-1));
    });
    // A head written by hand before the body (as for a 304): left as it is.
    app.get("/by-hand", (_req, res) => {
      res.writeHead(200, { "Content-Type": "text/html", "Cache-Control": "public, max-age=0, s-maxage=10" });
      res.end(`<p>${"written by hand ".repeat(100)}</p>`);
    });
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    const port = (server.address() as { port: number }).port;
    /** The raw answer: its headers and its bytes as they came, and as text once decoded. */
    const get = (path: string, acceptEncoding: string) =>
      new Promise<{ headers: Record<string, string | string[] | undefined>; bytes: Buffer; text: string }>((resolve, reject) => {
        request({ host: "127.0.0.1", port, path, headers: { "Accept-Encoding": acceptEncoding } }, (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", async () => {
            const { gunzipSync, brotliDecompressSync } = await import("node:zlib");
            const bytes = Buffer.concat(chunks);
            const encoding = response.headers["content-encoding"];
            const text = (encoding === "gzip" ? gunzipSync(bytes) : encoding === "br" ? brotliDecompressSync(bytes) : bytes).toString("utf8");
            resolve({ headers: response.headers, bytes, text });
          });
        })
          .on("error", reject)
          .end();
      });
    return { get, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }
  it("goes out whole, gzipped from the compression its copies are made of, not compressed again as it streams", async () => {
    const s = await streamingServer();
    // A browser that prefers brotli: the middleware would have compressed the stream with it, chunk by chunk.
    const first = await s.get("/streamed/public", "br, gzip");
    expect(first.headers["content-encoding"]).toBe("gzip");
    expect(first.text).toBe(page("public"));
    expect(Number(first.headers["content-length"])).toBe(first.bytes.length);
    expect(first.headers["vary"]).toMatch(/accept-encoding/i);
    // The copies are the same bytes (no nonce in this page): one compression in all.
    const copy = await s.get("/streamed/public", "br, gzip");
    expect(copy.headers["age"]).toBeDefined();
    expect(copy.bytes.equals(first.bytes)).toBe(true);
    // A client that takes no gzip gets the page plain, with its own length.
    const plain = await s.get("/streamed/public?plain", "identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.text).toBe(page("public"));
    expect(Number(plain.headers["content-length"])).toBe(Buffer.byteLength(page("public")));
    await s.close();
  });

  it("of a page it does not keep is compressed by the middleware as before; a page too large to keep streams; a head written by hand stays", async () => {
    const s = await streamingServer();
    const mine = await s.get("/streamed/private", "br, gzip");
    expect(mine.headers["content-encoding"]).toBe("br");
    expect(mine.text).toBe(page("private"));
    expect(mine.headers["age"]).toBeUndefined();
    const large = await s.get("/streamed/large", "br, gzip");
    expect(large.headers["content-encoding"]).toBe("br");
    expect(large.headers["transfer-encoding"]).toBe("chunked");
    expect(large.text).toBe(page("large"));
    // Not kept: the next request renders it again (no Age).
    expect((await s.get("/streamed/large", "br, gzip")).headers["age"]).toBeUndefined();
    expect((await s.get("/by-hand", "gzip")).text).toBe(`<p>${"written by hand ".repeat(100)}</p>`);
    await s.close();
  });
});
