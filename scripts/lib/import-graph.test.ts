import path from "node:path";
import { describe, expect, it } from "vitest";
import { importCircles, importGraph, upwardImports, type ImportGraph } from "./import-graph";

const graphOf = (edges: Record<string, string[]>): ImportGraph => new Map(Object.entries(edges).map(([from, to]) => [from, new Set(to)]));

describe("the import graph checks", () => {
  it("find a circle and an import up the layers in a small graph", () => {
    const graph = graphOf({
      "domain/items.server.ts": ["domain/scans.server.ts", "lib/slug.ts"],
      "domain/scans.server.ts": ["domain/product-links.server.ts"],
      "domain/product-links.server.ts": ["domain/items.server.ts"],
      "lib/slug.ts": ["components/toast-provider.tsx"],
      "worker/job.server.ts": ["domain/scans.server.ts", "thumbnails/render-splats.ts"],
      "routes/items.tsx": ["domain/items.server.ts"],
    });
    expect(importCircles(graph)).toEqual([["domain/items.server.ts", "domain/product-links.server.ts", "domain/scans.server.ts"]]);
    expect(upwardImports(graph)).toEqual(["lib/slug.ts -> components/toast-provider.tsx"]);
  });
});

describe("app/ (issue 39, docs/decisions/042)", () => {
  const graph = importGraph(path.resolve("app"));

  it("has no import circle", () => {
    expect(graph.size).toBeGreaterThan(400);
    expect(importCircles(graph)).toEqual([]);
  });

  it("imports nothing up the layers: the domain asks for jobs through the after-commit outbox", () => {
    expect(upwardImports(graph)).toEqual([]);
  });
});
