// Route matching (docs/decisions/063-route-matches-remembered.md), printed only, no pass/fail: the matching a page
// request makes against the real build's 128 routes, with @remix-run/router's matchRoutes as it is (the baseline)
// and with each route tree's answers remembered per path shape (ids as placeholders). A page request here is what
// Remix does for one: the request handler's match, then, on the tree the page renders with (built again for each
// render, in both runs), lazy route discovery's match of each parent path and the render's match. The requests are model pages, embeds and downloads of BENCH_ROUTE_ITEMS models (2,000) picked by Zipf-like
// popularity, the front door and Explore.
//   npx tsx bench/route-matching.bench.ts
import { createRequire } from "node:module";
import path from "node:path";
import { rememberingMatchRoutes, type MatchRoutes } from "../app/lib/route-matching-memo.server";
import { buildDir, exitUnlessBuilt } from "./app-server";
import { print, weightedPicker, zipfViews } from "./bench-support";

exitUnlessBuilt();
const require = createRequire(import.meta.url);
const original = (require("@remix-run/router") as { matchRoutes: MatchRoutes }).matchRoutes;
const { createRoutes, createStaticHandlerDataRoutes } = require("@remix-run/server-runtime/dist/routes.js") as {
  createRoutes: (manifest: unknown) => unknown[];
  createStaticHandlerDataRoutes: (manifest: unknown, future: unknown) => unknown[];
};
const build = (await import(path.join(buildDir, "server/index.js"))) as { routes: Record<string, unknown>; future: unknown };
const serverRoutes = createRoutes(build.routes);

const ITEMS = Number(process.env.BENCH_ROUTE_ITEMS ?? 2_000);
const REQUESTS = Number(process.env.BENCH_ROUTE_REQUESTS ?? 30_000);
const ids = Array.from({ length: ITEMS }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
/** A stream of page paths, the same for both runs. */
const paths: string[] = [];
let seed = 42;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const pickId = weightedPicker(ids, ids.map((_, i) => zipfViews(i)), random);
for (let i = 0; i < REQUESTS; i++) {
  const kind = random();
  if (kind < 0.25) {
    paths.push("/");
    continue;
  }
  const id = pickId();
  paths.push(kind < 0.6 ? `/item/${id}` : kind < 0.85 ? `/embed/${id}` : `/v1/item/${id}/file`);
}

/**
 * The matching Remix does for one request: the handler's on the server's tree, then, on the tree the page renders
 * with (which Remix builds again for every render), each parent path (lazy route discovery) and the render's own.
 */
function pageRequest(matchRoutes: MatchRoutes, pathname: string): number {
  let found = matchRoutes(serverRoutes, pathname)?.length ?? 0;
  const renderRoutes = createStaticHandlerDataRoutes(build.routes, build.future);
  const segments = pathname.split("/").filter(Boolean);
  segments.pop();
  for (const parent of ["/", ...segments.map((_, i) => `/${segments.slice(0, i + 1).join("/")}`)]) found += matchRoutes(renderRoutes, parent)?.length ?? 0;
  return found + (matchRoutes(renderRoutes, pathname)?.length ?? 0);
}

function run(matchRoutes: MatchRoutes): { microseconds: number; found: number } {
  const started = process.cpuUsage();
  let found = 0;
  for (const pathname of paths) found += pageRequest(matchRoutes, pathname);
  const used = process.cpuUsage(started);
  return { microseconds: (used.user + used.system) / paths.length, found };
}

// Warm both up on other paths first, so neither run pays for the JIT.
for (let i = 0; i < 2_000; i++) pageRequest(original, `/item/warm-${i}`);
const remembering = rememberingMatchRoutes(original);
for (let i = 0; i < 2_000; i++) pageRequest(rememberingMatchRoutes(original), `/item/warm-${i}`);

const plain = run(original);
const remembered = run(remembering);
if (plain.found !== remembered.found) throw new Error(`the two runs matched differently: ${plain.found} vs ${remembered.found} routes`);
print(`${Object.keys(build.routes).length} routes; ${REQUESTS} page requests over ${ITEMS} models (Zipf-like), the front door and Explore`);
print(`${"matchRoutes".padEnd(40)} ${"CPU per page request".padStart(22)}`);
print(`${"as it is (baseline)".padEnd(40)} ${`${plain.microseconds.toFixed(1)} µs`.padStart(22)}`);
print(`${"each route tree's answers remembered".padEnd(40)} ${`${remembered.microseconds.toFixed(1)} µs`.padStart(22)}  (${(plain.microseconds / remembered.microseconds).toFixed(1)}× less)`);
