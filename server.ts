// The production HTTP server: Express in front of the Remix build. `npm start` runs it on embedded
// defaults (scripts/start.mjs); `npm run serve` runs it against configured services.
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { env } from "./app/env.server";
import { startOutboxRelay } from "./app/jobs/outbox-relay.server";
import { drainServer } from "./app/lib/graceful-shutdown.server";
import { installProcessGuards, requestErrorHandler } from "./app/lib/last-defence.server";
import { legacyHostRedirect } from "./app/lib/legacy";
import { linkOriginOf, trustedProxyMatcher, type LinkOriginRules } from "./app/lib/link-origin.server";
import { requestLanes } from "./app/lib/request-lanes.server";
import { rememberRouteMatches } from "./app/lib/route-matching-memo.server";
import { precompressedStatic } from "./app/lib/precompressed-static.server";
import { sharedPageCache, type RenderNotice, type SharedPage } from "./app/lib/shared-page-cache.server";
import { feedSharedChanges, sharedChangesHub } from "./app/lib/shared-changes-hub.server";
import { listenForSharedPageChanges, type SharedPageChanges } from "./app/lib/shared-page-changes.server";
import { serveHandedConnections, siblingChannel, superviseWebProcesses, takeWebProcessPriority, webProcessKind, webProcessPlan, webProcessSlot, worksFollowUps } from "./app/lib/web-processes.server";
import { isSafeText, UNSAFE_TEXT_MESSAGE } from "./app/lib/safe-text";
import { asksToRender, countsNoView, openSelfRequests, selfRequestOrigin, type SelfRequests } from "./app/lib/self-requests.server";
import { warmUp, type WarmUpReport } from "./app/lib/warm-up.server";

const root = path.dirname(fileURLToPath(import.meta.url));

/**
 * When we answer before reading a request body (a refused upload, a body over the limit), the
 * connection cannot be reused for the next request: tell the client to close it.
 */
function closeUnreadRequests(req: express.Request, res: express.Response, next: express.NextFunction) {
  const writeHead = res.writeHead;
  res.writeHead = function (this: express.Response, ...args: Parameters<typeof writeHead>) {
    if (!req.complete && req.method !== "GET" && req.method !== "HEAD") this.setHeader("Connection", "close");
    return writeHead.apply(this, args);
  } as typeof writeHead;
  next();
}

/**
 * A query string holding a NUL (or, after decoding, any text our rule refuses) is refused here, once,
 * for pages and API alike (issue 17 item 4): a 400 in the API's shape under /v1, a plain 400 page elsewhere.
 */
function refuseUnsafeQueries(req: express.Request, res: express.Response, next: express.NextFunction) {
  const at = req.originalUrl.indexOf("?");
  if (at < 0) return next();
  const query = new URLSearchParams(req.originalUrl.slice(at + 1));
  for (const [key, value] of query) {
    if (isSafeText(key) && isSafeText(value)) continue;
    const message = `The query parameter ${JSON.stringify(key.replaceAll("\u0000", ""))} ${UNSAFE_TEXT_MESSAGE}`;
    res.setHeader("Cache-Control", "no-store");
    if (req.path.startsWith("/v1/")) res.status(400).json({ status: 400, error: "invalid_input", message });
    else res.status(400).type("text/plain; charset=utf-8").send(message);
    return;
  }
  next();
}

const SAFE_REQUEST_ID = /^[\w.:-]{8,128}$/;
/** A kept page's refresh that takes longer is given up; the next visitor after its copy's grace renders it. */
const REFRESH_TIMEOUT_MS = 30_000;

/**
 * Every response names its request (X-Request-Id: a proxy's id when it sent a sane one, else a new
 * one) and how long the server took until the headers (Server-Timing), for support and for the
 * admins' developer tools, which read both from the browser's performance entries.
 */
function tagRequests(req: express.Request, res: express.Response, next: express.NextFunction) {
  const started = process.hrtime.bigint();
  const incoming = req.headers["x-request-id"];
  const id = typeof incoming === "string" && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader("X-Request-Id", id);
  const writeHead = res.writeHead;
  res.writeHead = function (this: express.Response, ...args: Parameters<typeof writeHead>) {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (!this.headersSent) this.setHeader("Server-Timing", `app;dur=${ms.toFixed(1)}, request;desc="${id}"`);
    return writeHead.apply(this, args);
  } as typeof writeHead;
  next();
}

/**
 * Each request's link origin, worked out once by the one rule (app/lib/link-origin.server.ts, docs/decisions/039)
 * from what only the connection knows (the peer's address: is it a configured proxy?). Kept in res.locals for
 * the legacy-host redirect and Remix's load context.
 */
function resolveLinkOrigin(rules: LinkOriginRules) {
  return (req: express.Request, res: express.Response, next: express.NextFunction) => {
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    // A web process's own request (its warm-up, a kept page's refresh) asks as a visitor on the origin it names did.
    const own = selfRequestOrigin(req);
    if (own) {
      res.locals.linkOrigin = own;
      return next();
    }
    res.locals.linkOrigin = linkOriginOf(
      {
        host: req.headers.host,
        forwardedHost: header("x-forwarded-host"),
        forwardedProto: header("x-forwarded-proto"),
        peerAddress: req.socket.remoteAddress,
        encrypted: "encrypted" in req.socket && Boolean(req.socket.encrypted),
      },
      rules,
    );
    next();
  };
}

/** Requests on an old host (LEGACY_HOSTS, an allowed link host) go to APP_URL's host with the same path and query (SPEC §2). */
function redirectLegacyHosts({ legacyHosts, appUrl }: { legacyHosts: string[]; appUrl: string }) {
  return (req: express.Request, res: express.Response, next: express.NextFunction) => {
    const host = new URL(res.locals.linkOrigin as string).host;
    const target = legacyHostRedirect({ host, originalUrl: req.originalUrl, legacyHosts, appUrl });
    if (target) res.redirect(301, target);
    else next();
  };
}

/**
 * `handler` only for paths whose first segment names an entry of `dir` (the client build's favicon, legacy
 * pages, viewer libraries), read once at start-up: a page such as /item/{id} goes on to Remix without a
 * file-system lookup for a file that cannot be there (under load, express.static's stat of every page's path
 * cost 8 % of the web process).
 */
function onlyUnderEntriesOf(dir: string, handler: express.RequestHandler): express.RequestHandler {
  const entries = new Set(existsSync(dir) ? readdirSync(dir) : []);
  return (req, res, next) => {
    const first = req.path.split("/")[1] ?? "";
    if (entries.has(first)) handler(req, res, next);
    else next();
  };
}

const buildDir = path.resolve(root, process.env.SCANROOM_BUILD_DIR ?? "build");

export async function createServerApp({ buildPath = path.join(buildDir, "server/index.js") } = {}) {
  // Remix matches each page's path 3–6 times; each route tree's answers are remembered per path (decision 063).
  rememberRouteMatches();
  const build = (await import(buildPath)) as ServerBuild & { legacyHostRedirect?: (req: express.Request) => string | null };
  const views = build.entry.module as unknown as {
    countItemView: (itemId: string) => void;
    flushItemViews: () => Promise<void>;
  };
  const config = env();
  const isTrustedProxy = trustedProxyMatcher(config.TRUSTED_PROXIES);
  const app = express();
  app.disable("x-powered-by");
  // X-Forwarded-* only from the configured proxies (req.ip, req.protocol), as for links.
  app.set("trust proxy", (address: string) => isTrustedProxy(address));
  app.use(tagRequests);
  app.use(closeUnreadRequests);
  app.use(resolveLinkOrigin({ appUrl: config.APP_URL, linkHosts: config.linkHosts, isTrustedProxy }));
  app.use(redirectLegacyHosts({ legacyHosts: config.legacyHosts, appUrl: config.APP_URL }));
  app.use(refuseUnsafeQueries);
  // Model bytes keep their Content-Length (the viewer's progress bar reads it): no compression.
  app.use(
    compression({
      filter: (req, res) =>
        !String(res.getHeader("Content-Type") ?? "").startsWith("application/octet-stream") && compression.filter(req, res),
    }),
  );
  // Each folder of the client build: the build's own brotli/gzip copy where the browser takes one
  // (scripts/precompress-build.mjs; nothing compressed per request), else the file itself.
  const clientDir = path.join(buildDir, "client");
  const assetsDir = path.join(clientDir, "assets");
  const assetsCache = { immutable: true, maxAge: "1y" };
  app.use("/assets", precompressedStatic(assetsDir, assetsCache), express.static(assetsDir, { ...assetsCache, index: false }));
  // Static legacy pages (public/legacy) run no script: the strictest policy (issue 17, item 14).
  const staticPagePolicy = "default-src 'self'; script-src 'none'; object-src 'none'; base-uri 'self'; frame-ancestors 'self'";
  const clientCache = { maxAge: "1h" };
  app.use(
    onlyUnderEntriesOf(
      clientDir,
      express
        .Router()
        .use(
          precompressedStatic(clientDir, clientCache),
          express.static(clientDir, {
            ...clientCache,
            index: false,
            setHeaders: (res, filePath) => {
              if (filePath.endsWith(".html")) res.setHeader("Content-Security-Policy", staticPagePolicy);
            },
          }),
        ),
    ),
  );
  /** Whether the database's change notices are heard, while pages are kept until changed. */
  let changesHeard: (() => boolean) | undefined;
  // This process's requests of its own (warm-up, refreshes of kept pages), on a loopback listener opened on first use.
  let self: Promise<SelfRequests> | null = null;
  const selfRequests = () => (self ??= openSelfRequests(app, { atOnce: 2 }).catch((error: unknown) => ((self = null), Promise.reject(error))));
  // Signed-out visitors' pages that say they may be shared (docs/decisions/045-shared-page-cache.md).
  // A page that names what it shows is kept until the database says that changed (decision 057), while it is heard.
  if (config.SHARED_PAGE_CACHE_MB > 0) {
    let changes: SharedPageChanges | null = null;
    // With several web processes, a page one renders is given to the others (decision 060): rendered once, not once each.
    // Each says which pages it is rendering, so that the others wait for its copy rather than render them too (decision 065).
    const siblings = siblingChannel<SharedPage>("shared-page");
    const siblingRenders = siblingChannel<RenderNotice>("page-render");
    // The cache and the public records the domain keeps (decision 066) hear each change in the same turn, through
    // the process's hub: a page rendered again after a change never reads a record from before it.
    const cache = sharedPageCache({
      refresh: {
        render: (req, linkOrigin) =>
          void selfRequests()
            .then((requests) => requests.get({ path: req.originalUrl, linkOrigin, render: true, deadline: Date.now() + REFRESH_TIMEOUT_MS }))
            .catch(() => {}),
        isRefresh: asksToRender,
      },
      maxBytes: config.SHARED_PAGE_CACHE_MB * 1024 * 1024,
      // A copy given to the process's own request (its warm-up) is nobody's view.
      onView: (itemId, req) => void (countsNoView(req) || views.countItemView(itemId)),
      changes: sharedChangesHub(),
      keptSeconds: config.SHARED_PAGE_KEPT_SECONDS,
      share: siblings?.send,
      announce: siblingRenders?.send,
    });
    siblings?.listen(cache.receive);
    siblingRenders?.listen(cache.heard);
    if (config.SHARED_PAGE_KEPT_SECONDS > 0 && config.DATABASE_URL) {
      const hub = feedSharedChanges(() => changes?.live ?? false);
      changes = listenForSharedPageChanges(config.DATABASE_URL, { onChange: hub.changed, onUnheard: () => hub.changed("all") });
      changesHeard = () => changes?.live ?? false;
    }
    app.locals.stopPageChanges = async () => (cache.stop(), await changes?.stop());
    app.use(cache);
  }
  app.locals.flushViews = views.flushItemViews;
  // Before it serves anyone, a web process asks itself for what visitors ask for most: its own requests count no views (decision 068).
  app.locals.warmUp = async (): Promise<WarmUpReport> =>
    warmUp(await selfRequests(), {
      appUrl: config.APP_URL,
      models: config.WARM_UP_MODELS,
      seconds: config.WARM_UP_SECONDS,
      heard: changesHeard,
      share: webProcessSlot() ?? undefined,
    });
  // Signed-in work and uploads take turns; visitors' GETs never wait on them (decision 061).
  app.use(requestLanes({ "signed-in": config.SIGNED_IN_REQUESTS_AT_ONCE || Infinity, uploads: config.UPLOADS_AT_ONCE || Infinity }));
  app.all(
    "*",
    createRequestHandler({
      build,
      getLoadContext: (req, res) => ({ linkOrigin: res.locals.linkOrigin as string, clientAddress: req.ip, forNoOne: countsNoView(req) }),
    }),
  );
  app.use(requestErrorHandler);
  // Follow-ups the domain commits (delivery copies, thumbnails, storefront syncs, scans) go to the job queue
  // from here (app/jobs/outbox-relay.server.ts), and the process that hands one on works its queue: every web
  // process but the visitors' ones beside a signed-in process, whose follow-ups wait for its sweep (5 s at most).
  if (worksFollowUps()) startOutboxRelay();
  return app;
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
// Several web processes: this process only supervises them, listens, and hands each connection to one of the
// right kind (app/lib/web-processes.server.ts).
if (isMain && !superviseWebProcesses(webProcessPlan(env()))) {
  takeWebProcessPriority();
  const port = env().PORT;
  const app = await createServerApp();
  const server = http.createServer(app);
  // Node's 5 s idle limit is shorter than browsers' and balancers': a request sent on a connection the
  // server is just closing gets no answer (EPIPE on an upload's body). Headers may take a moment longer.
  server.keepAliveTimeout = env().KEEP_ALIVE_SECONDS * 1000;
  server.headersTimeout = server.keepAliveTimeout + 1000;
  installProcessGuards(server);
  // A web process for visitors (or the only one) warms itself first: the supervisor hands it nothing, and it does
  // not listen, until it has (decision 068).
  if (webProcessKind() !== "signed-in" && env().WARM_UP_SECONDS > 0) {
    const warmed = await (app.locals.warmUp as () => Promise<WarmUpReport>)();
    const slot = webProcessSlot();
    process.stdout.write(
      `[scanroom] warmed up on the front door and ${warmed.models} most-viewed models: ${warmed.pages} pages, ${warmed.failed} failed, ${warmed.seconds.toFixed(1)} s${warmed.complete ? "" : " (stopped at WARM_UP_SECONDS)"}${slot ? ` (web process ${process.pid}, share ${slot.slot + 1} of ${slot.of})` : ""}\n`,
    );
  }
  // One of several web processes takes the connections the supervisor hands it; one alone listens.
  const handed = serveHandedConnections(server);
  if (handed) process.stdout.write(`[scanroom] serving http://localhost:${port} (a web process for ${webProcessKind()})\n`);
  else server.listen(port, () => process.stdout.write(`[scanroom] serving http://localhost:${port}\n`));
  // SIGTERM: readiness says 503 at once, the listener closes after SHUTDOWN_DELAY_SECONDS, requests in flight
  // get up to SHUTDOWN_GRACE_SECONDS more (docs/deploy.md). Ctrl-C (SIGINT) skips the delay.
  const { SHUTDOWN_DELAY_SECONDS, SHUTDOWN_GRACE_SECONDS } = env();
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const delayMs = signal === "SIGTERM" ? SHUTDOWN_DELAY_SECONDS * 1000 : 0;
    void drainServer(server, { delayMs, graceMs: SHUTDOWN_GRACE_SECONDS * 1000, handed }).then(async (clean) => {
      if (!clean) process.stderr.write("[scanroom] requests still open at the shutdown grace limit were cut\n");
      await (app.locals.flushViews as () => Promise<void>)();
      await (app.locals.stopPageChanges as (() => Promise<void>) | undefined)?.();
      process.exit(0);
    });
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}
