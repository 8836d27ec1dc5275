import preloads from "virtual:viewer-preloads";

/**
 * The files a page showing one model should fetch with its HTML (issue 20): the viewer's chunks for any
 * model; for a splat also Spark's chunk and its WASM. The list comes from the build (scripts/lib/viewer-preloads.ts).
 */
export function viewerPreloads({ splat }: { splat: boolean }): { modules: string[]; fetches: string[] } {
  return {
    modules: [...preloads.viewer, ...(splat ? preloads.splatModules : [])],
    fetches: splat && preloads.splatWasm ? [preloads.splatWasm] : [],
  };
}
