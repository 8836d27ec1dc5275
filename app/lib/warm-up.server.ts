// A web process that has just started keeps nothing and has compiled nothing: under load, its first seconds go
// to every model's first render, first record and first route match at once, and visitors wait (issue 37: the
// first 30 s of a run were the whole gap to its p99 goal). Before it takes traffic, it asks itself for what
// visitors ask for most (docs/decisions/068-web-processes-warm-up-before-serving.md): the front door and the
// most-viewed public models' page, embed and oEmbed answer, on the address visitors use, through its own stack.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { oembedDiscoveryHref } from "./oembed";

export interface WarmUpPlan {
  /** The site's public address (APP_URL): pages are kept under the origin they are asked on. */
  appUrl: string;
  /** How many of the most-viewed public models (WARM_UP_MODELS). */
  models: number;
  /** The most it may take, waiting for `heard` included (WARM_UP_SECONDS): then it stops asking. */
  seconds: number;
  /**
   * Whether the database's change notices are heard: until they are, a page is kept only for its s-maxage, and what
   * was kept is forgotten once they are. Warm-up waits for it, within its time. Absent: nothing to wait for.
   */
  heard?: () => boolean;
  /** Requests in flight at once: enough to overlap database reads, few enough not to queue. */
  atOnce?: number;
  /**
   * Where in the list of models to begin (0 ≤ startAt < 1; random unless given): web processes warming together
   * begin at different models, render different pages, and give each other their copies (decision 060).
   */
  startAt?: number;
}

export interface WarmUpReport {
  /** Models whose pages were asked for. */
  models: number;
  /** Pages answered 200, and those answered otherwise or not at all. */
  pages: number;
  failed: number;
  seconds: number;
  /** False when its time ran out first. */
  complete: boolean;
}

/** Each page a model's visitors ask for: its page, its embed, and its oEmbed answer as the page's discovery link names it. */
export function warmUpPaths(appUrl: string, itemId: string): string[] {
  const oembed = new URL(oembedDiscoveryHref(appUrl, itemId));
  return [`/item/${itemId}`, `/embed/${itemId}`, `${oembed.pathname}${oembed.search}`];
}

/** The connections of warm-up listeners: only this process makes them. */
const warmUpConnections = new WeakSet<object>();

/**
 * Whether a request came from this process's own warm-up: its links are on APP_URL's origin, as a visitor's behind
 * the site's proxies are, whatever scheme the loopback connection has (the pages it keeps are the ones visitors get).
 */
export function arrivedForWarmUp(req: http.IncomingMessage): boolean {
  return warmUpConnections.has(req.socket);
}

const LIST_PAGE = 100;
const HEARD_POLL_MS = 50;

/**
 * Asks `app` (the web process's request handler, before it serves anyone) for the front door and the pages of the
 * `plan.models` most-viewed public models, on a loopback listener of its own, as a browser on `plan.appUrl` would.
 * Never throws: a page that fails is counted, and the process serves anyway.
 */
export async function warmUp(app: http.RequestListener, plan: WarmUpPlan): Promise<WarmUpReport> {
  const started = Date.now();
  const deadline = started + plan.seconds * 1000;
  const report = { models: 0, pages: 0, failed: 0, complete: false };
  if (plan.seconds <= 0) return { ...report, seconds: 0, complete: true };
  const atOnce = plan.atOnce ?? 2;
  const server = http.createServer(app).on("connection", (socket) => warmUpConnections.add(socket));
  const agent = new http.Agent({ keepAlive: true, maxSockets: atOnce });
  try {
    await new Promise<void>((resolve, reject) => server.once("error", reject).listen({ port: 0, host: "127.0.0.1", exclusive: true }, resolve));
    const get = getter(server.address() as AddressInfo, new URL(plan.appUrl).host, agent, deadline);
    while (plan.heard && !plan.heard() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, HEARD_POLL_MS));
    const ids = plan.models > 0 ? await mostViewedModels(get, plan.models) : [];
    report.models = ids.length;
    const at = Math.floor((plan.startAt ?? Math.random()) * ids.length);
    const paths = ["/", ...[...ids.slice(at), ...ids.slice(0, at)].flatMap((id) => warmUpPaths(plan.appUrl, id))];
    let next = 0;
    const worker = async () => {
      while (next < paths.length && Date.now() < deadline) {
        const { status } = await get(paths[next++], "text/html");
        if (status === 200) report.pages++;
        else report.failed++;
      }
    };
    await Promise.all(Array.from({ length: atOnce }, worker));
    report.complete = next >= paths.length && Date.now() <= deadline;
  } catch {
    report.complete = false;
  } finally {
    agent.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  return { ...report, seconds: (Date.now() - started) / 1000 };
}

type Get = (path: string, accept: string) => Promise<{ status: number; body: string }>;

/** A GET on the warm-up's listener, with the public host, as a browser asks (compressed answers taken, thrown away). */
function getter({ port }: AddressInfo, host: string, agent: http.Agent, deadline: number): Get {
  return (path, accept) =>
    new Promise((resolve) => {
      const request = http.get(
        { host: "127.0.0.1", port, path, agent, headers: { host, accept, "accept-encoding": accept === "application/json" ? "identity" : "gzip, deflate, br" } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => accept === "application/json" && chunks.push(chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
          res.on("error", () => resolve({ status: 0, body: "" }));
        },
      );
      request.setTimeout(Math.max(1, deadline - Date.now()), () => request.destroy());
      request.on("error", () => resolve({ status: 0, body: "" }));
    });
}

/** The ids of up to `count` public, ready models, most viewed first, from the site's own list (GET /v1/items). */
async function mostViewedModels(get: Get, count: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ sort: "most_viewed", status: "ready", limit: String(Math.min(LIST_PAGE, count - ids.length)) });
    if (cursor) query.set("cursor", cursor);
    const { status, body } = await get(`/v1/items?${query}`, "application/json");
    const page = status === 200 ? parseListPage(body) : null;
    if (!page) break;
    ids.push(...page.items.map((item) => item.id));
    cursor = page.next_cursor;
  } while (cursor && ids.length < count);
  return ids.slice(0, count);
}

/** The list in an answer of GET /v1/items (`{ status, data: { items, next_cursor } }`), or null. */
function parseListPage(body: string): { items: Array<{ id: string }>; next_cursor: string | null } | null {
  try {
    const { data } = JSON.parse(body) as { data?: { items?: Array<{ id: string }>; next_cursor?: string | null } };
    return Array.isArray(data?.items) ? { items: data.items, next_cursor: data.next_cursor ?? null } : null;
  } catch {
    return null;
  }
}
