// A Vite build plugin (issue 20): the pages that show one model (/embed/{id}, /viewer/{id}) name the viewer's
// chunks, Spark's chunk and Spark's WASM in their HTML, so the browser fetches them with the page instead of
// discovering them one after the other (the route module runs, imports the viewer, which imports Spark, which
// fetches its WASM: ~1 s of request chains in the viewer bench's trace). Those files are dynamic imports with
// hashed names that Remix's manifest does not list: the client build writes them to <build>/viewer-preloads.json
// and the server build reads them back as the module `virtual:viewer-preloads` (empty in dev, or without a build).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";
import type { OutputBundle, OutputChunk } from "rollup";

export interface ViewerPreloads {
  /** The viewer's module and the chunks it imports statically (three.js among them), as /assets/… URLs. */
  viewer: string[];
  /** Spark's chunk and the chunks it imports that the viewer's do not. */
  splatModules: string[];
  /** Spark's WASM (scripts/lib/spark-wasm-file.ts), or null. */
  splatWasm: string | null;
  /** The early splats' module (app/viewer/early-splats) first, then the chunks it imports; empty without one. */
  earlySplats: string[];
}

const VIEWER_ENTRY = /[\\/]app[\\/]viewer[\\/]index\.ts$/;
const EARLY_SPLATS_ENTRY = /[\\/]app[\\/]viewer[\\/]early-splats[\\/]index\.ts$/;
const SPARK_MODULE = /@sparkjsdev[\\/]spark[\\/]dist[\\/]spark\.module\.js$/;
const VIRTUAL_ID = "virtual:viewer-preloads";
const EMPTY: ViewerPreloads = { viewer: [], splatModules: [], splatWasm: null, earlySplats: [] };

/** `chunk` and every chunk it imports statically, transitively, as file names. */
function withStaticImports(bundle: OutputBundle, chunk: OutputChunk): string[] {
  const seen = new Set<string>();
  const visit = (fileName: string) => {
    if (seen.has(fileName)) return;
    seen.add(fileName);
    const next = bundle[fileName];
    if (next?.type === "chunk") next.imports.forEach(visit);
  };
  visit(chunk.fileName);
  return [...seen];
}

/** Which files to preload, from the client build's output. */
export function findViewerPreloads(bundle: OutputBundle, base = "/"): ViewerPreloads {
  const chunks = Object.values(bundle).filter((output): output is OutputChunk => output.type === "chunk");
  const viewerChunk = chunks.find((chunk) => chunk.facadeModuleId && VIEWER_ENTRY.test(chunk.facadeModuleId));
  const sparkChunk = chunks.find((chunk) => chunk.moduleIds.some((id) => SPARK_MODULE.test(id.split("?")[0]!)));
  const wasm = Object.values(bundle).find((output) => output.type === "asset" && /(^|\/)spark-[^/]*\.wasm$/.test(output.fileName));
  // A chunk of its own (earlySplatsChunks), which rollup gives no facade module.
  const earlyChunk = chunks.find((chunk) => chunk.moduleIds.some((id) => EARLY_SPLATS_ENTRY.test(id)));
  const viewer = viewerChunk ? withStaticImports(bundle, viewerChunk) : [];
  const splat = sparkChunk ? withStaticImports(bundle, sparkChunk).filter((file) => !viewer.includes(file)) : [];
  const url = (file: string) => `${base}${file}`;
  return {
    viewer: viewer.map(url),
    splatModules: splat.map(url),
    splatWasm: wasm ? url(wasm.fileName) : null,
    earlySplats: earlyChunk ? withStaticImports(bundle, earlyChunk).map(url) : [],
  };
}

interface ChunkMeta {
  getModuleIds: () => IterableIterator<string>;
  getModuleInfo: (id: string) => { importedIds: readonly string[] } | null;
}

/**
 * Rollup's manualChunks for the client build: the early splats' module and every module it imports statically
 * go into one chunk of their own. Without it, the modules it shares with the site (the download, the XOR
 * decoding, the camera fit) land in shared chunks that import React and the site's providers, and the early
 * splats could not run before those had arrived (decision 038).
 */
export function earlySplatsChunks(): (id: string, meta: ChunkMeta) => string | undefined {
  let closure: Set<string> | null = null;
  return (id, { getModuleIds, getModuleInfo }) => {
    if (!closure) {
      closure = new Set();
      const entry = [...getModuleIds()].find((moduleId) => EARLY_SPLATS_ENTRY.test(moduleId));
      const visit = (moduleId: string) => {
        if (closure!.has(moduleId)) return;
        closure!.add(moduleId);
        getModuleInfo(moduleId)?.importedIds.forEach(visit);
      };
      if (entry) visit(entry);
    }
    return closure.has(id) ? "early-splats" : undefined;
  };
}

export function viewerPreloads(): Plugin {
  let file = "";
  let ssr = false;
  let serving = false;
  return {
    name: "scanroom-viewer-preloads",
    config(_config, env) {
      if (env.isSsrBuild || env.command !== "build") return;
      return { build: { rollupOptions: { output: { manualChunks: earlySplatsChunks() } } } };
    },
    configResolved(config) {
      ssr = !!config.build.ssr;
      serving = config.command === "serve";
      // build/client and build/server are siblings: the list sits next to them, outside what is served.
      file = path.resolve(config.root, config.build.outDir, "..", "viewer-preloads.json");
    },
    resolveId(id) {
      return id === VIRTUAL_ID ? `\0${VIRTUAL_ID}` : null;
    },
    load(id) {
      if (id !== `\0${VIRTUAL_ID}`) return null;
      const preloads = !serving && existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as ViewerPreloads) : EMPTY;
      return `export default ${JSON.stringify(preloads)};`;
    },
    writeBundle(options, bundle) {
      if (ssr || serving) return;
      writeFileSync(file, JSON.stringify(findViewerPreloads(bundle)));
    },
  };
}
