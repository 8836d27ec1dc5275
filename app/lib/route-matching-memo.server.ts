// Remix finds which routes answer a path with `matchRoutes` of @remix-run/router, which flattens and ranks the
// whole route tree (128 routes) and compiles a pattern for each branch it tries, on every call. A page is matched
// 4–6 times while it is answered: once by the request handler, once per parent path by lazy route discovery's
// manifest, once more while it renders. Under the load bench that was 9.6 % of a web process's CPU
// (docs/decisions/063-route-matches-remembered.md).
//
// The answer depends only on the route tree, the path and the basename, and the route trees are built once per
// build: so each tree's answers are remembered, per path. The module's callers (Remix's request handler and its
// lazy route discovery) read `router.matchRoutes` off the module at each call, so replacing the export is enough.
// The router's own calls inside a request (its static handler's `query`) keep the original.
import { createRequire } from "node:module";

/** One route of a match, as @remix-run/router answers it. */
export interface RouteMatch {
  params: Record<string, string | undefined>;
  pathname: string;
  pathnameBase: string;
  route: unknown;
}

export type MatchRoutes = (routes: readonly unknown[], location: string | { pathname?: string }, basename?: string, ...rest: unknown[]) => RouteMatch[] | null;

/** Paths remembered per route tree; past this many (a crawler trying every id) the tree's memo starts again. */
export const PATHS_PER_ROUTE_TREE = 5_000;

const REMEMBERS = Symbol.for("scanroom.remembersRouteMatches");

/**
 * A `matchRoutes` that answers as `original` does, remembering each route tree's answers per path and basename.
 * Every caller gets its own copy of the matches (and of their params), so one caller's change cannot reach another's.
 */
export function rememberingMatchRoutes(original: MatchRoutes, limit = PATHS_PER_ROUTE_TREE): MatchRoutes {
  const memos = new WeakMap<object, Map<string, RouteMatch[] | null>>();
  const copy = (matches: RouteMatch[] | null) => matches?.map((match) => ({ ...match, params: { ...match.params } })) ?? null;
  const remembering: MatchRoutes = (routes, location, basename = "/", ...rest) => {
    // Anything but the documented three arguments (a future flag, a partial match) goes straight through.
    if (rest.length > 0 || !Array.isArray(routes) || typeof basename !== "string") return original(routes, location, basename, ...rest);
    const pathname = typeof location === "string" ? location : location?.pathname || "/";
    if (typeof pathname !== "string") return original(routes, location, basename);
    let memo = memos.get(routes);
    if (!memo) memos.set(routes, (memo = new Map()));
    const key = `${basename}\u0000${pathname}`;
    let matches = memo.get(key);
    if (matches === undefined) {
      matches = original(routes, pathname, basename);
      if (memo.size >= limit) memo.clear();
      memo.set(key, copy(matches));
    }
    return copy(matches);
  };
  return Object.assign(remembering, { [REMEMBERS]: true });
}

/** Whether `matchRoutes` is one made by `rememberingMatchRoutes`. */
export function remembersMatches(matchRoutes: unknown): boolean {
  return typeof matchRoutes === "function" && REMEMBERS in matchRoutes;
}

/**
 * Makes @remix-run/router's `matchRoutes`, as every module that requires it sees it, remember its answers. Called
 * once, before the server build answers anything; a second call changes nothing.
 */
export function rememberRouteMatches(): void {
  const router = createRequire(import.meta.url)("@remix-run/router") as { matchRoutes: MatchRoutes };
  if (!remembersMatches(router.matchRoutes)) router.matchRoutes = rememberingMatchRoutes(router.matchRoutes);
}
