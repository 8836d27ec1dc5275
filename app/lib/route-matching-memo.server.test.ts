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
        { id: "routes/v1.item.$id.annotations.$annotationId", path: "v1/item/:id/annotations/:annotationId" },
        { id: "routes/storage.$", path: "storage/*" },
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
  "/v1/item/0f171279-8e16-4be6-b56c-38a9eafbc746/annotations/7d2d6a4e-52b9-4a53-9f5e-1c3f8e2b9a10",
  "/EMBED/0F171279-8E16-4BE6-B56C-38A9EAFBC746",
  "/storage/items/0f171279-8e16-4be6-b56c-38a9eafbc746/model.glb",
  "/storage/0f171279-8e16-4be6-b56c-38a9eafbc746",
  "/u/0f171279-8e16-4be6-b56c-38a9eafbc746/0f171279-8e16-4be6-b56c-38a9eafbc746",
  "/item/0f171279-8e16-4be6-b56c-38a9eafbc746/edit",
  "/item/0f171279-8e16-4be6-b56c-38a9eafbc746x",
  // Holds the shapes' own placeholder: matched as it is.
  "/storage/5ca40000-0000-4000-8000-000000000000/0f171279-8e16-4be6-b56c-38a9eafbc746",
  "/storage/x5ca40000-0000-4000-8000-000000000001y/0f171279-8e16-4be6-b56c-38a9eafbc746",
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
    expect(remembering(routes, "/app/item/abc", "/")![1].route).toBe(routes[0].children[9]);
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
    // Another tree (another build: a route's path changed) is worked out on its own.
    const rebuilt = routeTree();
    rebuilt[0].children[1].path = "model/:id";
    expect(remembering(rebuilt, "/item/abc")).toEqual(original(rebuilt, "/item/abc"));
    expect(counted).toHaveBeenCalledTimes(3);
  });

  it("knows a tree built again from the same routes (as Remix builds one for every render) and answers with that copy's routes", () => {
    const counted = vi.fn(original);
    const remembering = rememberingMatchRoutes(counted);
    remembering(routeTree(), "/item/abc");
    remembering(routeTree(), "/");
    const copy = routeTree();
    const matches = remembering(copy, "/item/abc")!;
    expect(matches).toEqual(original(copy, "/item/abc"));
    expect(matches[0].route).toBe(copy[0]);
    expect(matches[1].route).toBe(copy[0].children[1]);
    expect(remembering(copy, "/")![1].route).toBe(copy[0].children[0]);
    expect(counted).toHaveBeenCalledTimes(2);
    // A tree whose ids repeat cannot be told by its outline: matched as it is, every time.
    const repeated = [{ id: "a", path: "x" }, { id: "a", path: "y" }];
    expect(remembering(repeated, "/y")).toEqual(original(repeated, "/y"));
    remembering(repeated, "/y");
    expect(counted).toHaveBeenCalledTimes(4);
  });

  it("works out each shape of path once: the same page of another model is the first one's answer with its own id", () => {
    const routes = routeTree();
    const counted = vi.fn(original);
    const remembering = rememberingMatchRoutes(counted);
    const one = "0f171279-8e16-4be6-b56c-38a9eafbc746";
    const other = "7D2D6A4E-52B9-4A53-9F5E-1C3F8E2B9A10";
    expect(remembering(routes, `/item/${one}`)).toEqual(original(routes, `/item/${one}`));
    expect(remembering(routes, `/item/${other}`)).toEqual(original(routes, `/item/${other}`));
    expect(remembering(routes, `/item/${other}`)![1]).toMatchObject({ params: { id: other }, pathname: `/item/${other}`, pathnameBase: `/item/${other}` });
    expect(counted).toHaveBeenCalledTimes(1);
    // Two ids in a path: each goes back to its place.
    const two = remembering(routes, `/v1/item/${other}/annotations/${one}`)!;
    expect(two[1].params).toEqual({ id: other, annotationId: one });
    expect(remembering(routes, `/v1/item/${one}/annotations/${other}`)![1].params).toEqual({ id: one, annotationId: other });
    expect(counted).toHaveBeenCalledTimes(2);
  });

  it("matches paths as they are in a route tree that names a uuid itself", () => {
    const id = "0f171279-8e16-4be6-b56c-38a9eafbc746";
    const routes = [{ id: "root", path: "", children: [{ id: "pinned", path: `item/${id}` }, { id: "any", path: "item/:id" }] }];
    const counted = vi.fn(original);
    const remembering = rememberingMatchRoutes(counted);
    expect(remembering(routes, `/item/${id}`)![1].route).toBe(routes[0].children[0]);
    expect(remembering(routes, "/item/7d2d6a4e-52b9-4a53-9f5e-1c3f8e2b9a10")![1].route).toBe(routes[0].children[1]);
    expect(counted).toHaveBeenCalledTimes(2);
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
