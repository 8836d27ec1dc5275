// The load bench's visitors, in a process of their own (so that they do not share an event loop with the
// creators): one rate-held client per kind of page (rate-held-client.ts), each held to its share of the overall
// rate, over public models. Run by load.bench.ts as `node --import tsx bench/load/visitors.ts <plan.json> <result.json>`.
import { readFileSync, writeFileSync } from "node:fs";
import { runRateHeldClient } from "./rate-held-client";
import { weightedPicker } from "../bench-support";
import { LatencyBook, WINDOW_SECONDS, type KindFigures, type LatencyWindow } from "./latency-book";

export interface VisitorPlan {
  origin: string;
  /** The bench's start of the run (ms since the epoch): unanswered requests are counted by second from it. */
  startedAt: number;
  seconds: number;
  /** GETs per second over all kinds. */
  rate: number;
  /** Public, ready models (ids), how often each is picked relative to the others, and the categories to browse. */
  itemIds: string[];
  itemWeights: number[];
  categorySlugs: string[];
  /** Only the kinds whose names contain one of these (LOAD_KINDS), each at its own share of the rate; all when empty. */
  kinds: string[];
}

export interface VisitorResult {
  figures: KindFigures[];
  total: KindFigures;
  /** Requests that got no answer (refused, reset, timed out), by whole second since the plan's startedAt. */
  unansweredBySecond: Record<number, number>;
  /** Why requests got no answer ("model download: 1048576 of 5242880 bytes"), and how often. */
  unansweredWhy: Array<[string, number]>;
  /** All kinds' p99 in each WINDOW_SECONDS of the run. */
  windows: LatencyWindow[];
  /** Each kind's p99 in the first window. */
  firstWindowByKind: Array<{ kind: string; p99: number }>;
}

const WORDS = ["vase", "chair", "statue", "lamp", "temple", "shoe"];
const SORTS = ["most_viewed", "newest"];

/** Each kind of visit, its share of the rate, and the paths it asks for (one picked per request). */
function visits(plan: VisitorPlan): Array<{ kind: string; share: number; path: () => string }> {
  const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)];
  const item = weightedPicker(plan.itemIds, plan.itemWeights);
  return [
    { kind: "front door (/)", share: 0.15, path: () => "/" },
    {
      kind: "explore (sort, search, category, next page)",
      share: 0.2,
      path: () =>
        pick([
          () => `/?sort=${pick(SORTS)}`,
          () => `/?q=${pick(WORDS)}`,
          () => `/?category=${pick(plan.categorySlugs)}`,
          () => "/?index&_data=routes%2F_index",
        ])(),
    },
    {
      kind: "model page (/item/{id})",
      share: 0.25,
      path: () => `/item/${item()}`,
    },
    {
      kind: "embed (/embed/{id})",
      share: 0.15,
      path: () => `/embed/${item()}`,
    },
    {
      kind: "model download (/v1/item/{id}/file)",
      share: 0.1,
      path: () => `/v1/item/${item()}/file`,
    },
    {
      kind: "oEmbed",
      share: 0.15,
      path: () => `/oembed?format=json&url=${encodeURIComponent(`${plan.origin}/item/${item()}`)}`,
    },
  ];
}

async function main() {
  const plan = JSON.parse(readFileSync(process.argv[2], "utf8")) as VisitorPlan;
  const book = new LatencyBook(plan.startedAt);
  const unansweredBySecond: Record<number, number> = {};
  const started = Date.now();
  const headers = {
    "accept-encoding": "gzip, deflate, br",
    "user-agent": "scanroom-load-bench",
    accept: "text/html,application/json,*/*",
  };
  const chosen = visits(plan).filter(({ kind }) => plan.kinds.length === 0 || plan.kinds.some((part) => kind.includes(part)));
  const noAnswer = (kind: string, why: string) => {
    book.unanswered(kind, why);
    const second = Math.floor((Date.now() - plan.startedAt) / 1000);
    unansweredBySecond[second] = (unansweredBySecond[second] ?? 0) + 1;
  };
  const runs = chosen.map(({ kind, share, path }) => {
    const rate = Math.max(1, Math.round(plan.rate * share));
    return runRateHeldClient({
      origin: plan.origin,
      rate,
      // Enough connections to keep the rate while answers take up to ~100 ms each.
      connections: Math.ceil(rate / 10) + 2,
      seconds: plan.seconds,
      timeoutMs: 10_000,
      headers,
      path,
      onAnswer: (ms, status) => book.answered(kind, ms, status),
      onNoAnswer: (why) => noAnswer(kind, why),
    });
  });
  await Promise.all(runs);
  const seconds = (Date.now() - started) / 1000;
  const result: VisitorResult = {
    figures: book.figures(seconds),
    total: book.total("all visitor GETs", seconds),
    unansweredBySecond,
    unansweredWhy: [...book.unansweredWhy],
    windows: book.windows(WINDOW_SECONDS),
    firstWindowByKind: book.firstWindowByKind(WINDOW_SECONDS),
  };
  writeFileSync(process.argv[3], JSON.stringify(result));
}

await main();
process.exit(0);
