import { createRequire } from "node:module";
import { describe, expect, it, vi } from "vitest";
import { rememberingMatchRoutes, rememberRouteMatches, remembersMatches, type RouteMatch } from "./route-matching-memo.server";

const require = createRequire(import.meta.url);
const router = require("@remix-run/router") as { matchRoutes: (...args: never[]) => RouteMatch[] | null };
const original = router.matchRoutes as Parameters<typeof rememberingMatchRoutes>[0];

/** A tree shaped like the site's: a root layout, index, dynamic and nested segments, an optional one, a splat. */
function routeTree() {
  return [
    {
      id: "root",
      path: "",
      children: [
        { id: "routes/_index", index: true },
        { id: "routes/item.$id", path: "item/:id" },
        { id: "routes/item.$id_.edit", path: "item/:id/edit" },
        { id: "routes/embed.$id", path: "embed/:id" },
        { id: "routes/v1.item.$id.file", path: "v1/item/:id/file" },
        { id: "routes/u.$handle", path: "u/:handle/:tab?" },
        {
          id: "routes/dashboard",
          path: "dashboard",
          children: [
            { id: "routes/dashboard._index", index: true },
            { id: "routes/dashboard.settings", path: "settings" },
          ],
        },
        { id: "routes/$", path: "*" },
      ],
    },
  ];
}

const PATHS = [
  "/",
  "/item/0f171279-8e16-4be6-b56c-38a9eafbc746",
  "/item/abc/edit",
  "/item/abc/",
  "/embed/%E2%9C%93",
  "/v1/item/abc/file",
  "/u/ana",
  "/u/ana/likes",
  "/dashboard",
  "/dashboard/settings",
  "/no/such/page",
  "/item",
  "",
];

describe("rememberingMatchRoutes", () => {
  it("answers every path exactly as the router does, with and without a basename", () => {
    const routes = routeTree();
    const remembering = rememberingMatchRoutes(original);
    for (const basename of ["/", "/app"]) {
      for (const path of PATHS) {
        const at = basename === "/" ? path : `${basename}${path}`;
        // Twice: the second answer comes from the memo.
        expect(remembering(routes, at, basename)).toEqual(original(routes, at, basename));
        expect(remembering(routes, at, basename)).toEqual(original(routes, at, basename));
        expect(remembering(routes, { pathname: at }, basename)).toEqual(original(routes, { pathname: at }, basename));
      }
    }
    // A path outside the basename matches nothing, as with the router.
    expect(remembering(routes, "/elsewhere/item/abc", "/app")).toBeNull();
    // The same path under another basename is another answer.
    expect(remembering(routes, "/app/item/abc", "/app")![1].route).toBe(routes[0].children[1]);
    expect(remembering(routes, "/app/item/abc", "/")![1].route).toBe(routes[0].children[7]);
  });

  it("works out each path of a route tree once, whatever form the location takes", () => {
    const routes = routeTree();
    const counted = vi.fn(original);
    const remembering = rememberingMatchRoutes(counted);
    remembering(routes, "/item/abc");
    remembering(routes, "/item/abc");
    remembering(routes, { pathname: "/item/abc" });
    expect(counted).toHaveBeenCalledTimes(1);
    remembering(routes, "/item/def");
    expect(counted).toHaveBeenCalledTimes(2);
    // Another tree (another build) is worked out on its own.
    remembering(routeTree(), "/item/abc");
    expect(counted).toHaveBeenCalledTimes(3);
  });

  it("gives each caller its own matches: changing one answer changes no later one", () => {
    const routes = routeTree();
    const remembering = rememberingMatchRoutes(original);
    const first = remembering(routes, "/item/abc")!;
    first[1].params.id = "changed";
    first.pop();
    const second = remembering(routes, "/item/abc")!;
    expect(second).toHaveLength(2);
    expect(second[1].params.id).toBe("abc");
    expect(second[1].route).toBe(routes[0].children[1]);
  });

  it("starts a tree's memo again past its limit, still answering right", () => {
    const routes = routeTree();
    const counted = vi.fn(original);
    const remembering = rememberingMatchRoutes(counted, 2);
    remembering(routes, "/item/a");
    remembering(routes, "/item/b");
    remembering(routes, "/item/c"); // full: forgets a and b
    expect(remembering(routes, "/item/c")![1].params.id).toBe("c");
    expect(counted).toHaveBeenCalledTimes(3);
    expect(remembering(routes, "/item/a")![1].params.id).toBe("a");
    expect(counted).toHaveBeenCalledTimes(4);
  });

  it("passes calls it does not know how to remember straight to the router", () => {
    const counted = vi.fn(original);
    const remembering = rememberingMatchRoutes(counted);
    const routes = routeTree();
    remembering(routes, "/item/a", "/", true);
    remembering(routes, "/item/a", "/", true);
    expect(counted).toHaveBeenCalledTimes(2);
  });
});

describe("rememberRouteMatches", () => {
  it("makes the router module's matchRoutes remember, once, and Remix's request handler reads it from there", () => {
    const before = router.matchRoutes;
    try {
      rememberRouteMatches();
      const installed = router.matchRoutes;
      expect(remembersMatches(installed)).toBe(true);
      rememberRouteMatches();
      expect(router.matchRoutes).toBe(installed);

      // Remix's server runtime must look the function up on the module at each call (not hold its own
      // binding), or it would never use the memo: a Remix upgrade that changes that fails here.
      const seen = vi.fn(installed);
      router.matchRoutes = seen as never;
      const { matchServerRoutes } = require("@remix-run/server-runtime/dist/routeMatching.js") as {
        matchServerRoutes: (routes: unknown[], pathname: string) => Array<{ params: Record<string, string> }> | null;
      };
      const matches = matchServerRoutes(routeTree(), "/item/abc");
      expect(seen).toHaveBeenCalledTimes(1);
      expect(matches?.[1].params.id).toBe("abc");
    } finally {
      router.matchRoutes = before;
    }
  });
});
