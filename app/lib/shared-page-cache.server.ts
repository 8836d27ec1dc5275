import type { NextFunction, Request, Response } from "express";
import { ByteBudgetLru } from "./byte-budget-lru";
import { ChangeMarks } from "./change-marks";
import { createNonce } from "./content-security-policy.server";
import { fillGzipTemplate, gzipTemplate, type GzipTemplate } from "./gzip-template.server";
import { pickEncoding } from "./precompressed-static.server";
import { isSignedInRequest } from "./session-cookie";
import type { SharedChangesHub } from "./shared-changes-hub.server";
import { SHOWS_HEADER, VIEW_HEADER } from "./public-page-cache";

/**
 * A shared cache for signed-out visitors' pages (docs/decisions/045-shared-page-cache.md): what a CDN would do
 * in front of us, in the web process. A page whose answer says `Cache-Control: public, s-maxage=N` (the front
 * door, Explore, public model pages, embeds, oEmbed: app/lib/public-page-cache.ts) is kept N seconds and given
 * to every signed-out request for the same URL on the same host; a request with a session or a bearer token
 * never reads or fills it. Each copy given out gets a fresh CSP nonce (body and header), its own request id,
 * and an Age, and goes out gzipped from one compression of the page where the client takes gzip. When a copy expires, it is
 * rendered again (in the background for no one, with `refresh`; else by the next request) while requests still get the
 * expired copy (for at most GRACE_MS more); a page not kept yet is rendered by its first request while the others wait
 * for that render: a popular page is never rendered by a crowd at once.
 *
 * A page that counts a view when it is served (the model page) names the item in VIEW_HEADER; the cache
 * counts a view for every copy it gives out, through `onView`, and never sends the header.
 */
const GRACE_MS = 10_000;
/** Pages over this size are served but not kept. */
const MAX_ENTRY_BYTES = 1024 * 1024;
/** Headers that belong to one answer, not to the page: never kept. */
const PER_ANSWER_HEADERS = new Set([
  "age",
  "connection",
  "content-encoding",
  "content-length",
  "date",
  "server-timing",
  "set-cookie",
  "transfer-encoding",
  "vary",
  "x-request-id",
  VIEW_HEADER,
  SHOWS_HEADER,
]);
/** Model bytes, uploads and API answers: never pages (and never worth holding in memory while they are sent). */
const NOT_PAGES = /^\/(v1|storage|assets)\//;
const NONCE_IN_POLICY = /'nonce-([A-Za-z0-9+/=]+)'/;
/** Smaller bodies go out as they are, as the compression middleware leaves them (its threshold). */
const MIN_GZIP_BYTES = 1024;
const GZIP_ONLY: ReadonlySet<"gzip"> = new Set(["gzip"]);

/** Whether a page goes out gzipped (from its template) to this request. */
const takesGzip = (req: Request, body: string) => body.length >= MIN_GZIP_BYTES && pickEncoding(req.headers["accept-encoding"], GZIP_ONLY) !== null;

/** A gzip copy of a page with `nonce` in it, its headers set: already encoded, so the compression middleware passes it through. */
function gzipCopy(res: Response, template: GzipTemplate, nonce: string | null): Buffer {
  const gzipped = fillGzipTemplate(template, nonce);
  res.vary("Accept-Encoding");
  res.setHeader("Content-Encoding", "gzip");
  res.setHeader("Content-Length", gzipped.length);
  return gzipped;
}

interface Entry {
  status: number;
  headers: Array<[string, string | string[]]>;
  body: string;
  /** The CSP nonce the page was rendered with: replaced in every copy. */
  nonce: string | null;
  /**
   * The body gzipped once, made when the first render or the first copy goes out gzipped (decisions 056, 067):
   * no compression per copy.
   */
  gzip: GzipTemplate | null;
  /** An item whose view each copy counts. */
  view: string | null;
  /** What the page shows ('item:<id>', 'user:<id>'), when it may be kept until one of them changes. */
  shows: string[] | null;
  storedAt: number;
  expiresAt: number;
  refreshing: boolean;
}

export interface SharedPageCacheOptions {
  maxBytes: number;
  /** Counts a view of the item a copy given to `req` names. */
  onView: (itemId: string, req: Request) => void;
  /**
   * The changes to what pages show (app/lib/shared-changes-hub.server.ts): a page that names what it shows is kept
   * until one of them changes, while every change is heard; only for its s-maxage while not (or without a hub).
   */
  changes?: SharedChangesHub;
  /** How long a page that names what it shows may be kept while every change is heard, in seconds. */
  keptSeconds?: number;
  /** Gives every page this process renders and keeps to the other web processes (their `receive`): each page is rendered once, not once per process. */
  share?: (page: SharedPage) => void;
  /**
   * Tells the other web processes (their `heard`) when this one starts and ends a render it would share: they wait
   * for that page rather than render it too, and give out their expired copy meanwhile.
   */
  announce?: (notice: RenderNotice) => void;
  /** How long a request waits for a page a sibling said it is rendering before rendering it itself (a sibling may die mid-render). */
  siblingWaitMs?: number;
  /**
   * Renders a page again in the background, for no one, as a visitor asked for it on `linkOrigin`
   * (app/lib/self-requests.server.ts); `isRefresh` tells its request, which always renders and must count no view.
   * With it, an expired copy is given out while its refresh renders, instead of making a visitor wait for the
   * render (decisions 069, 072). Without it, the first request after a copy expires renders it.
   */
  refresh?: { render: (req: Request, linkOrigin: string) => void; isRefresh: (req: Request) => boolean };
  now?: () => number;
}

/** A page one web process rendered, as its siblings receive it (docs/decisions/060-web-processes-share-rendered-pages.md). */
export interface SharedPage {
  key: string;
  copy: Omit<Entry, "gzip" | "refreshing" | "expiresAt">;
  /** When its render started, on this machine's clock: a change heard since then may not be in it. */
  renderStartedAt: number;
  /** Its s-maxage. */
  seconds: number;
}

/** A web process's word to its siblings that it started (`rendering`) or ended a render of the page under `key`. */
export interface RenderNotice {
  key: string;
  rendering: boolean;
}

/** The cache, and what it is told of changes. */
export interface SharedPageCache {
  (req: Request, res: Response, next: NextFunction): void;
  /** Stops hearing the hub's changes. */
  stop(): void;
  /** A page another web process rendered (its `share`): kept as if rendered here, unless a newer copy is. */
  receive(page: SharedPage): void;
  /** A sibling started or ended a render (its `announce`). */
  heard(notice: RenderNotice): void;
}

/** Pages remembered as not kept (rendered side by side when asked for at once); past this many all are forgotten. */
const MAX_NOT_KEPT = 10_000;
/** Changes remembered for renders in flight; past this many the oldest are dropped and older renders count as changed. */
const MAX_REMEMBERED_CHANGES = 10_000;
/** How long a request waits for a sibling's render, by default: far longer than a render takes, even on a busy machine. */
const SIBLING_WAIT_MS = 2_000;
/**
 * The most a page's time kept until changed is cut by, as a share of it: each page is kept between (1 − this) and
 * all of it, by its key (the same in every web process), so that pages rendered together — a warm-up's thousands —
 * do not all expire, and render again, in the same seconds (decision 072).
 */
const KEPT_SPREAD = 0.5;

/** A number in [0, 1) that only `key` decides, spread evenly however alike keys are (FNV-1a, then MurmurHash3's finaliser). */
function fractionOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return ((hash ^ (hash >>> 16)) >>> 0) / 2 ** 32;
}

/** How long the page under `key` is kept while nothing it shows changes: its share of `seconds` (KEPT_SPREAD). */
export function keptSecondsOf(key: string, seconds: number): number {
  return seconds * (1 - KEPT_SPREAD * fractionOf(key));
}

/**
 * Where a page is kept: its host and its URL with the query's parameters in one order, as the page's route reads
 * them (decoded, by name; repeated names keep their order). Pages read their query by name, so
 * `?format=json&url=…` and `?url=…&format=json` are one page: an oEmbed consumer building its own query, a link
 * with its parameters swapped, and the page's own discovery link share one render.
 */
export function pageKey(linkOrigin: string, originalUrl: string): string {
  const at = originalUrl.indexOf("?");
  if (at === -1) return `${linkOrigin} ${originalUrl}`;
  const query = new URLSearchParams(originalUrl.slice(at + 1));
  query.sort();
  return `${linkOrigin} ${originalUrl.slice(0, at)}?${query}`;
}

/** `s-maxage` of a public answer, or 0 when it is not for shared caches. */
export function sharedMaxAge(cacheControl: string | undefined): number {
  if (!cacheControl) return 0;
  const directives = cacheControl.toLowerCase().split(",").map((d) => d.trim());
  if (!directives.includes("public") || directives.some((d) => d === "private" || d === "no-store")) return 0;
  const maxAge = directives.find((d) => d.startsWith("s-maxage="));
  const seconds = maxAge ? Number(maxAge.slice("s-maxage=".length)) : 0;
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
}

export function sharedPageCache({
  maxBytes,
  onView,
  changes,
  keptSeconds = 0,
  share,
  announce,
  siblingWaitMs = SIBLING_WAIT_MS,
  refresh,
  now = Date.now,
}: SharedPageCacheOptions): SharedPageCache {
  const keptNow = (key: string) => (changes?.live() ? keptSecondsOf(key, keptSeconds) : 0);
  const sizeOf = (entry: Entry) => entry.body.length + (entry.gzip?.parts.reduce((sum, part) => sum + part.deflated.length, 0) ?? 0);
  const entries = new ByteBudgetLru<Entry>(maxBytes, sizeOf, (entry) => entry.shows ?? []);
  // Each change heard gets the next number; a render that started before a change to what it shows (or before
  // changes went unheard) is kept only for its s-maxage: it may hold what was there before.
  let changeNumber = 0;
  const changedAt = new ChangeMarks(MAX_REMEMBERED_CHANGES);
  // When each change was heard, by the clock: a sibling's render that started at or before it may not hold it.
  const heardAt = new ChangeMarks(MAX_REMEMBERED_CHANGES);

  // A page nobody has asked for yet is rendered by its first request; the crowd that comes while it renders waits
  // for that render and gets copies of it, as it would while an expired copy is refreshed. A page whose last render
  // could not be kept is not waited for: its requests render side by side.
  const rendering = new Map<string, Array<() => void>>();
  const notKept = new Set<string>();
  // Pages a sibling web process said it is rendering, and the requests here waiting for its copy (decision 065):
  // released when it says the render ended (its copy, if kept, came just before), or after siblingWaitMs.
  const siblingRenders = new Map<string, { waiting: Array<() => void>; timer: NodeJS.Timeout }>();
  const releaseSiblingRender = (key: string) => {
    const render = siblingRenders.get(key);
    if (!render) return;
    siblingRenders.delete(key);
    clearTimeout(render.timer);
    for (const retry of render.waiting) retry();
  };

  function serve(entry: Entry, key: string, req: Request, res: Response) {
    entries.get(key);
    const nonce = entry.nonce ? createNonce() : null;
    const fresh = (text: string) => (nonce ? text.replaceAll(entry.nonce!, nonce) : text);
    res.status(entry.status);
    for (const [name, value] of entry.headers) res.setHeader(name, Array.isArray(value) ? value.map(fresh) : fresh(value));
    res.setHeader("Age", String(Math.max(0, Math.floor((now() - entry.storedAt) / 1000))));
    res.vary("Accept-Encoding");
    if (takesGzip(req, entry.body)) {
      let template = entry.gzip;
      if (!template) {
        template = gzipTemplate(entry.body, entry.nonce);
        entries.set(key, { ...entry, gzip: template });
      }
      res.end(gzipCopy(res, template, nonce));
    } else {
      res.end(fresh(entry.body));
    }
    if (entry.view) onView(entry.view, req);
  }

  /**
   * Renders the page for this request and keeps it where it may. Its answer is held until the render ends and goes
   * out whole (decision 067): gzipped from the same one compression its copies are made of, instead of compressed a
   * second time as it streams (Remix flushes after every chunk, so the compression middleware compressed each chunk
   * on its own). An answer that grows past MAX_ENTRY_BYTES is never kept: what was held goes out and the rest streams.
   */
  function fill(key: string, req: Request, res: Response) {
    const chunks: Buffer[] = [];
    let size = 0;
    let holding = true;
    let view: string | null = null;
    let shows: string[] | null = null;
    const started = changeNumber;
    const renderStartedAt = now();
    const collect = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === "function" || size > MAX_ENTRY_BYTES) return;
      const buffer = Buffer.isBuffer(chunk) ? chunk : typeof chunk === "string" ? Buffer.from(chunk, (encoding as BufferEncoding) || "utf8") : Buffer.from(chunk as Uint8Array);
      chunks.push(buffer);
      size += buffer.length;
    };
    // The page's own headers for the cache, taken off the answer before its head is written.
    const takeCacheHeaders = (answer: Response) => {
      const named = answer.getHeader(VIEW_HEADER);
      if (named !== undefined) {
        view = String(named);
        answer.removeHeader(VIEW_HEADER);
      }
      const showing = answer.getHeader(SHOWS_HEADER);
      if (showing !== undefined) {
        shows = String(showing).split(" ").filter(Boolean);
        answer.removeHeader(SHOWS_HEADER);
      }
    };
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: Parameters<typeof writeHead>) {
      takeCacheHeaders(this);
      return writeHead.apply(this, args);
    } as typeof writeHead;
    const write = res.write as (...a: unknown[]) => boolean;
    const end = res.end as (...a: unknown[]) => Response;
    res.write = function (this: Response, chunk: unknown, ...rest: unknown[]) {
      collect(chunk, typeof rest[0] === "string" ? rest[0] : undefined);
      if (holding && size <= MAX_ENTRY_BYTES) {
        const done = rest.find((arg) => typeof arg === "function") as (() => void) | undefined;
        if (done) process.nextTick(done);
        return true;
      }
      if (holding) {
        // Too large to keep: what was held goes out (this chunk is its last part), and the rest streams.
        holding = false;
        return write.call(this, Buffer.concat(chunks), ...rest.filter((arg) => typeof arg === "function"));
      }
      return write.call(this, chunk, ...rest);
    } as typeof res.write;
    res.end = function (this: Response, chunk?: unknown, ...rest: unknown[]) {
      const done = [chunk, ...rest].find((arg) => typeof arg === "function") as (() => void) | undefined;
      collect(chunk, typeof rest[0] === "string" ? rest[0] : undefined);
      takeCacheHeaders(this);
      const headers = Object.entries(this.getHeaders()).filter(([name]) => !PER_ANSWER_HEADERS.has(name.toLowerCase()));
      const seconds = sharedMaxAge(this.getHeader("cache-control")?.toString());
      const text = /^(text\/|application\/json)/.test(String(this.getHeader("content-type") ?? ""));
      let entry: Entry | null = null;
      if (this.statusCode === 200 && seconds > 0 && text && size <= MAX_ENTRY_BYTES && this.getHeader("set-cookie") === undefined) {
        const policy = this.getHeader("content-security-policy")?.toString();
        const at = now();
        const kept = shows && !changedAt.changedAfter(shows, started) ? keptNow(key) : 0;
        const copy: SharedPage["copy"] = {
          status: 200,
          headers: headers.map(([name, value]) => [name, Array.isArray(value) ? value : String(value)]),
          body: Buffer.concat(chunks).toString("utf8"),
          nonce: policy ? (NONCE_IN_POLICY.exec(policy)?.[1] ?? null) : null,
          view,
          shows,
          storedAt: at,
        };
        entry = { ...copy, gzip: null, expiresAt: at + Math.max(seconds, kept) * 1000, refreshing: false };
        notKept.delete(key);
        share?.({ key, copy, renderStartedAt, seconds });
      } else {
        entries.delete(key);
        if (notKept.size >= MAX_NOT_KEPT) notKept.clear();
        notKept.add(key);
      }
      let result: Response;
      if (!holding) {
        result = end.call(this, chunk, ...rest);
      } else if (entry && !this.headersSent && takesGzip(req, entry.body)) {
        // The template its copies will be filled from, made now: the page is compressed once in all.
        entry.gzip = gzipTemplate(entry.body, entry.nonce);
        result = end.call(this, gzipCopy(this, entry.gzip, entry.nonce), done);
      } else {
        // Plain with its length, or compressed by the compression middleware in one piece (which drops the length).
        // (A head already written by hand, as for a 304, stays as it was.)
        const body = Buffer.concat(chunks);
        if (!this.headersSent) this.setHeader("Content-Length", body.length);
        result = end.call(this, body, done);
      }
      if (entry) entries.set(key, entry);
      return result;
    } as typeof res.end;
    // An answer cut short is not kept; the expired copy may be refreshed by the next request.
    res.once("close", () => {
      const entry = entries.peek(key);
      if (!res.writableFinished && entry) entry.refreshing = false;
    });
  }

  const renderFirst = (key: string, res: Response) => {
    const waiting: Array<() => void> = [];
    rendering.set(key, waiting);
    res.once("close", () => {
      if (rendering.get(key) === waiting) rendering.delete(key);
      for (const retry of waiting) retry();
    });
  };
  const announceRender = (key: string, res: Response) => {
    if (!announce) return;
    announce({ key, rendering: true });
    res.once("close", () => announce({ key, rendering: false }));
  };
  const middleware = (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" || isSignedInRequest(req.headers) || req.headers.range || NOT_PAGES.test(req.path)) return next();
    const linkOrigin = res.locals.linkOrigin as string;
    const key = pageKey(linkOrigin, req.originalUrl);
    if (refresh?.isRefresh(req)) {
      announceRender(key, res);
      fill(key, req, res);
      return next();
    }
    const entry = entries.peek(key);
    const at = now();
    const sibling = siblingRenders.get(key);
    if (entry && (at < entry.expiresAt || ((entry.refreshing || sibling) && at < entry.expiresAt + GRACE_MS))) return serve(entry, key, req, res);
    const retry = () => middleware(req, res, next);
    if (rendering.has(key)) return void rendering.get(key)!.push(retry);
    if (sibling && !entry?.refreshing) return void sibling.waiting.push(retry);
    // Expired a moment ago: this visitor gets the copy (counting its view, if the page counts them) while it renders
    // again for no one (a render that counts no view: its request is the process's own, decision 072).
    if (refresh && entry && !entry.refreshing && at < entry.expiresAt + GRACE_MS) {
      entry.refreshing = true;
      refresh.render(req, linkOrigin);
      return serve(entry, key, req, res);
    }
    if (entry) entry.refreshing = true;
    else if (!notKept.has(key)) renderFirst(key, res);
    if (entry || !notKept.has(key)) announceRender(key, res);
    fill(key, req, res);
    next();
  };
  // A change forgets the pages that show it ('all': every page kept on trust; changes nobody heard may have touched any).
  const changed = (what: string) => {
    changeNumber += 1;
    changedAt.note(what, changeNumber);
    heardAt.note(what, now());
    if (what === "all") entries.deleteWhere((entry) => entry.shows !== null);
    else entries.deleteTagged(what);
  };
  const receive = ({ key, copy, renderStartedAt, seconds }: SharedPage) => {
    const mine = entries.peek(key);
    if (mine && mine.storedAt >= copy.storedAt) return;
    const kept = copy.shows && !heardAt.changedSince(copy.shows, renderStartedAt) ? keptNow(key) : 0;
    const expiresAt = copy.storedAt + Math.max(seconds, kept) * 1000;
    if (expiresAt <= now()) return;
    entries.set(key, { ...copy, gzip: null, expiresAt, refreshing: false });
    notKept.delete(key);
  };
  const heard = ({ key, rendering: started }: RenderNotice) => {
    if (!started) return releaseSiblingRender(key);
    if (siblingRenders.has(key)) return;
    const timer = setTimeout(() => releaseSiblingRender(key), siblingWaitMs);
    timer.unref();
    siblingRenders.set(key, { waiting: [], timer });
  };
  const stop = changes?.listen(changed) ?? (() => {});
  return Object.assign(middleware, { stop, receive, heard });
}
