// Remix finds which routes answer a path with `matchRoutes` of @remix-run/router, which flattens and ranks the
// whole route tree (128 routes) and compiles a pattern for each branch it tries, on every call. A page is matched
// 4–6 times while it is answered: once by the request handler, once per parent path by lazy route discovery's
// manifest, once more while it renders. Under the load bench that was 9.6 % of a web process's CPU
// (docs/decisions/063-route-matches-remembered.md).
//
// The answer depends only on the route tree's outline (its routes' ids, paths and nesting, the same in every copy
// Remix builds of it), the path and the basename: so each outline's answers are remembered, per path shape (a
// model's page is matched once, not once per model). The module's callers (Remix's request handler and its lazy route discovery) read `router.matchRoutes`
// off the module at each call, so replacing the export is enough. The router's own calls inside a request (its
// static handler's `query`) keep the original.
import { createRequire } from "node:module";

/** One route of a match, as @remix-run/router answers it. */
export interface RouteMatch {
  params: Record<string, string | undefined>;
  pathname: string;
  pathnameBase: string;
  route: unknown;
}

export type MatchRoutes = (routes: readonly unknown[], location: string | { pathname?: string }, basename?: string, ...rest: unknown[]) => RouteMatch[] | null;

/** Path shapes remembered per route tree; past this many (a crawler trying every path) the tree's memo starts again. */
export const PATHS_PER_ROUTE_TREE = 5_000;

const REMEMBERS = Symbol.for("scanroom.remembersRouteMatches");
const UUID_SEGMENT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The k-th id segment of a path stands for this uuid in its shape (k < 100); a path already holding it is kept as it is. */
const PLACEHOLDER_STEM = "5ca40000-0000-4000-8000-0000000000";
const placeholder = (k: number) => `${PLACEHOLDER_STEM}${String(k).padStart(2, "0")}`;

/**
 * A path's shape: each segment that is a uuid (a model's, a user's, an annotation's id) replaced by a placeholder
 * uuid, so that /item/<one id> and /item/<another> are matched once. Null when the path has no such segment or
 * could be mistaken for a shape.
 */
function shapeOf(pathname: string): { shape: string; ids: string[] } | null {
  if (pathname.toLowerCase().includes(PLACEHOLDER_STEM)) return null;
  const ids: string[] = [];
  const segments = pathname.split("/");
  for (let i = 0; i < segments.length && ids.length < 100; i++) {
    if (!UUID_SEGMENT.test(segments[i])) continue;
    ids.push(segments[i]);
    segments[i] = placeholder(ids.length - 1);
  }
  return ids.length > 0 ? { shape: segments.join("/"), ids } : null;
}

/** Whether some route's own path names a uuid: then a path's shape could match another route than the path itself. */
function namesUuid(routes: readonly unknown[]): boolean {
  return routes.some((route) => {
    const { path, children } = (route ?? {}) as { path?: unknown; children?: unknown };
    if (typeof path === "string" && path.split("/").some((segment) => UUID_SEGMENT.test(segment))) return true;
    return Array.isArray(children) && namesUuid(children);
  });
}

/** A match as remembered: its route by id, so that every copy of a tree gets its own route objects back. */
interface RememberedMatch {
  routeId: string;
  params: Record<string, string | undefined>;
  pathname: string;
  pathnameBase: string;
}

interface TreeMemo {
  /** False where some route's own path names a uuid: paths are then remembered as they are. */
  byShape: boolean;
  answers: Map<string, RememberedMatch[] | null>;
}

/** Distinct route trees remembered; past this many (a development server rebuilding) all are forgotten. */
const MAX_TREES = 64;

/**
 * What matching depends on in a route tree, in order (ids, paths, index and case flags, nesting), and its routes by
 * id; null where ids are missing or repeated.
 */
function outlineOf(routes: readonly unknown[]): { outline: string; byId: Map<string, unknown> } | null {
  const byId = new Map<string, unknown>();
  const walk = (list: readonly unknown[]): unknown[] | null => {
    const outlined: unknown[] = [];
    for (const route of list) {
      const { id, path, index, caseSensitive, children } = (route ?? {}) as { id?: unknown; path?: unknown; index?: unknown; caseSensitive?: unknown; children?: unknown };
      if (typeof id !== "string" || byId.has(id)) return null;
      byId.set(id, route);
      const nested = Array.isArray(children) ? walk(children) : null;
      if (Array.isArray(children) && !nested) return null;
      outlined.push([id, path ?? null, index === true, caseSensitive === true, nested]);
    }
    return outlined;
  };
  const outline = walk(routes);
  return outline ? { outline: JSON.stringify(outline), byId } : null;
}

/**
 * A `matchRoutes` that answers as `original` does, remembering each route tree's answers per path shape and
 * basename.
 * - A tree is known by its outline, not by its array: Remix builds the tree a page renders with again for every
 *   render, and lazy route discovery matches the page's parent paths on that copy. Each answer holds the routes of
 *   the copy it was asked on.
 * - A uuid segment matches a dynamic segment or a splat whatever its value, so the routes a shape matches are those
 *   of every path of that shape; each answer gets the path's own ids back in its pathnames and params.
 * - Every caller gets its own copy of the matches (and of their params), so one caller's change cannot reach another's.
 */
export function rememberingMatchRoutes(original: MatchRoutes, limit = PATHS_PER_ROUTE_TREE): MatchRoutes {
  const memos = new Map<string, TreeMemo>();
  const trees = new WeakMap<object, { memo: TreeMemo; byId: Map<string, unknown> } | null>();
  const treeOf = (routes: readonly unknown[]) => {
    let tree = trees.get(routes);
    if (tree !== undefined) return tree;
    const outlined = outlineOf(routes);
    if (outlined) {
      let memo = memos.get(outlined.outline);
      if (!memo) {
        if (memos.size >= MAX_TREES) memos.clear();
        memos.set(outlined.outline, (memo = { byShape: !namesUuid(routes), answers: new Map() }));
      }
      tree = { memo, byId: outlined.byId };
    } else tree = null;
    trees.set(routes, tree);
    return tree;
  };
  const remembering: MatchRoutes = (routes, location, basename = "/", ...rest) => {
    // Anything but the documented three arguments (a future flag, a partial match) goes straight through.
    if (rest.length > 0 || !Array.isArray(routes) || typeof basename !== "string") return original(routes, location, basename, ...rest);
    const pathname = typeof location === "string" ? location : location?.pathname || "/";
    const tree = typeof pathname === "string" ? treeOf(routes) : null;
    if (!tree) return original(routes, location, basename);
    const shaped = tree.memo.byShape ? shapeOf(pathname) : null;
    const asked = shaped?.shape ?? pathname;
    const key = `${basename}\u0000${asked}`;
    let remembered = tree.memo.answers.get(key);
    if (remembered === undefined) {
      const matches = original(routes, asked, basename);
      remembered =
        matches?.map(({ route, params, pathname, pathnameBase }) => ({ routeId: (route as { id: string }).id, params: { ...params }, pathname, pathnameBase })) ?? null;
      if (tree.memo.answers.size >= limit) tree.memo.answers.clear();
      tree.memo.answers.set(key, remembered);
    }
    const ids = shaped?.ids ?? [];
    const fill = (text: string) => ids.reduce((filled, id, k) => filled.replaceAll(placeholder(k), id), text);
    return (
      remembered?.map((match) => ({
        params: Object.fromEntries(Object.entries(match.params).map(([name, value]) => [name, value === undefined ? value : fill(value)])),
        pathname: fill(match.pathname),
        pathnameBase: fill(match.pathnameBase),
        route: tree.byId.get(match.routeId),
      })) ?? null
    );
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
