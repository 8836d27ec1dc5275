// The runtime import graph of app/ (issue 39, docs/decisions/042): which module imports which, with type-only
// imports left out (they vanish from the build). Finds import circles and arrows that run up the layers.
// Print it: npx tsx scripts/lib/import-graph.ts
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export type ImportGraph = Map<string, Set<string>>; // app-relative paths

const EXTENSIONS = [".ts", ".tsx"];
const STATIC_IMPORT = /^\s*(?:import|export)\s+(type\s+)?([^;]*?)\s+from\s+["']([^"']+)["']/gms;
const DYNAMIC_IMPORT = /import\(\s*["']([^"']+)["']\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return EXTENSIONS.includes(path.extname(name)) && !name.includes(".test.") && !name.endsWith(".d.ts") ? [full] : [];
  });
}

function resolveImport(appDir: string, from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("~/")) base = path.join(appDir, specifier.slice(2));
  else if (specifier.startsWith(".")) base = path.resolve(path.dirname(from), specifier);
  else return null;
  const candidates = [base, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => path.join(base, `index${e}`))];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? null;
}

/** `import { type A, type B } from` and `import type` bring nothing at run time. */
function typeOnly(typeKeyword: string | undefined, names: string): boolean {
  if (typeKeyword) return true;
  const list = names.trim();
  if (!list.startsWith("{") || !list.endsWith("}")) return false;
  const parts = list.slice(1, -1).split(",").map((part) => part.trim()).filter(Boolean);
  return parts.length > 0 && parts.every((part) => part.startsWith("type "));
}

export function importGraph(appDir: string): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of sourceFiles(appDir)) {
    const text = readFileSync(file, "utf8");
    const edges = new Set<string>();
    for (const [, typeKeyword, names, specifier] of text.matchAll(STATIC_IMPORT)) {
      if (typeOnly(typeKeyword, names!)) continue;
      const target = resolveImport(appDir, file, specifier!);
      if (target) edges.add(path.relative(appDir, target));
    }
    for (const [, specifier] of text.matchAll(DYNAMIC_IMPORT)) {
      const target = resolveImport(appDir, file, specifier!);
      if (target) edges.add(path.relative(appDir, target));
    }
    graph.set(path.relative(appDir, file), edges);
  }
  return graph;
}

/** Every group of modules that import each other round (Tarjan's strongly connected components, size > 1). */
export function importCircles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) circles.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return circles;
}

/** The layers issue 39 names, lowest first; a module may import its own layer or a lower one. */
export const LAYERS: Record<string, number> = {
  "env.server.ts": 0,
  generated: 0, // the Prisma client
  formats: 0,
  tools: 0,
  lib: 1,
  "db.server.ts": 2,
  storage: 2,
  domain: 3,
  jobs: 4,
  worker: 4,
};

/** The user interface, above every layer: no layered module may import it. */
const INTERFACE = ["routes", "components", "pages", "api", "root.tsx", "entry.client.tsx", "entry.server.tsx"];

const topOf = (file: string) => file.split("/")[0]!;

/**
 * "from -> to" for each import by a layered module of a higher layer's module or of the interface. Libraries
 * outside the layers (viewer/, thumbnails/ renderers; the Firebase and Shopify clients) are not ranked.
 */
export function upwardImports(graph: ImportGraph): string[] {
  const found: string[] = [];
  for (const [from, edges] of graph) {
    const own = LAYERS[topOf(from)];
    if (own === undefined) continue;
    for (const to of edges) {
      const theirs = LAYERS[topOf(to)];
      if ((theirs !== undefined && theirs > own) || INTERFACE.includes(topOf(to))) found.push(`${from} -> ${to}`);
    }
  }
  return found.sort();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const graph = importGraph(path.resolve("app"));
  const circles = importCircles(graph);
  const upward = upwardImports(graph);
  const imports = [...graph.values()].reduce((sum, edges) => sum + edges.size, 0);
  const lines = [
    `${graph.size} modules, ${imports} runtime imports, ${circles.length} import circles, ${upward.length} imports up the layers`,
    ...circles.map((circle) => `  circle: ${circle.join(", ")}`),
    ...upward.map((arrow) => `  up: ${arrow}`),
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}
