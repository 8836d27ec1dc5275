// A web process that has just started keeps nothing and has compiled nothing: under load, its first seconds go
// to every model's first render, first record and first route match at once, and visitors wait (issue 37: the
// first 30 s of a run were the whole gap to its p99 goal). Before it takes traffic, it asks itself for what
// visitors ask for most (docs/decisions/068-web-processes-warm-up-before-serving.md): the front door and the
// most-viewed public models' page, embed and oEmbed answer, on the address visitors use, through its own stack.
import { exploreListPaths } from "./explore-lists";
import { oembedDiscoveryHref } from "./oembed";
import type { SelfGet, SelfRequests } from "./self-requests.server";

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
   * This process's share of the warming when several visitors' processes warm together (`webProcessSlot()`): it
   * takes every `of`-th model from `slot` first, then the rest, so that together they render the most viewed first,
   * each page once, and give each other their renders (decision 060); the rest are then copies already kept, unless
   * a sibling died. Absent: the models in order.
   */
  share?: { slot: number; of: number };
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

const LIST_PAGE = 100;
const HEARD_POLL_MS = 50;
/**
 * The end of its time kept for Explore's lists (at most this share of it): they are kept only for their s-maxage
 * (decision 045), so they are asked for last, to be fresh, or within their grace, when the process starts serving.
 */
const LISTS_SHARE = 0.15;

/**
 * Asks this web process (through `self`, before it serves anyone) for the front door and the pages of the
 * `plan.models` most-viewed public models, then, in the last of its time, the front door again and Explore's lists,
 * as a browser on `plan.appUrl` would, `plan.atOnce` at a time. Never throws: a page that fails is counted, and the
 * process serves anyway.
 */
export async function warmUp(self: SelfRequests, plan: WarmUpPlan): Promise<WarmUpReport> {
  const started = Date.now();
  const deadline = started + plan.seconds * 1000;
  const report = { models: 0, pages: 0, failed: 0, complete: false };
  if (plan.seconds <= 0) return { ...report, seconds: 0, complete: true };
  const linkOrigin = new URL(plan.appUrl).origin;
  const get: Get = (path, keepBody = false) => self.get({ path, linkOrigin, keepBody, deadline });
  try {
    while (plan.heard && !plan.heard() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, HEARD_POLL_MS));
    const ids = plan.models > 0 ? await mostViewedModels(get, plan.models) : [];
    const lists = exploreListPaths(await categorySlugs(get));
    report.models = ids.length;
    const modelsDone = await ask(get, ["/", ...inShareOrder(ids, plan.share).flatMap((id) => warmUpPaths(plan.appUrl, id))], {
      until: deadline - plan.seconds * 1000 * LISTS_SHARE,
      deadline,
      atOnce: plan.atOnce ?? 2,
      report,
    });
    const listsDone = await ask(get, ["/", ...lists], { until: deadline, deadline, atOnce: plan.atOnce ?? 2, report });
    report.complete = modelsDone && listsDone;
  } catch {
    report.complete = false;
  }
  return { ...report, seconds: (Date.now() - started) / 1000 };
}

interface Asking {
  /** When it stops asking (ms since the epoch). */
  until: number;
  /** When requests are cut short (warm-up's end). */
  deadline: number;
  atOnce: number;
  report: { pages: number; failed: number };
}

/** Asks for `paths`, `atOnce` at a time, until `until`; counts what is answered in `report`. Whether it asked for all in time. */
async function ask(get: Get, paths: string[], { until, deadline, atOnce, report }: Asking): Promise<boolean> {
  let next = 0;
  const worker = async () => {
    while (next < paths.length && Date.now() < until) {
      const { status } = await get(paths[next++]);
      if (status === 200) report.pages++;
      // A page its time cut short is not a failure.
      else if (Date.now() < deadline) report.failed++;
    }
  };
  await Promise.all(Array.from({ length: atOnce }, worker));
  return next >= paths.length && Date.now() <= until;
}

/** `ids` (most viewed first) with this process's share first, each part in order. */
function inShareOrder(ids: string[], share: WarmUpPlan["share"]): string[] {
  if (!share || share.of <= 1) return ids;
  const mine = (index: number) => index % share.of === share.slot;
  return [...ids.filter((_, index) => mine(index)), ...ids.filter((_, index) => !mine(index))];
}

type Get = (path: string, keepBody?: SelfGet["keepBody"]) => Promise<{ status: number; body: string }>;

/** The ids of up to `count` public, ready models, most viewed first, from the site's own list (GET /v1/items). */
async function mostViewedModels(get: Get, count: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ sort: "most_viewed", status: "ready", limit: String(Math.min(LIST_PAGE, count - ids.length)) });
    if (cursor) query.set("cursor", cursor);
    const { status, body } = await get(`/v1/items?${query}`, true);
    const page = status === 200 ? parseListPage(body) : null;
    if (!page) break;
    ids.push(...page.items.map((item) => item.id));
    cursor = page.next_cursor;
  } while (cursor && ids.length < count);
  return ids.slice(0, count);
}

/** The slugs of Explore's categories, from the site's own list (GET /v1/categories); none if it cannot be read. */
async function categorySlugs(get: Get): Promise<string[]> {
  const { status, body } = await get("/v1/categories", true);
  if (status !== 200) return [];
  try {
    const { data } = JSON.parse(body) as { data?: Array<{ slug?: unknown }> };
    return Array.isArray(data) ? data.flatMap((category) => (typeof category.slug === "string" ? [category.slug] : [])) : [];
  } catch {
    return [];
  }
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
