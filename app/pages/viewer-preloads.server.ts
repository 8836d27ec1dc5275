import preloads from "virtual:viewer-preloads";

export interface ViewerPreloadList {
  modules: string[];
  fetches: string[];
  /** The early splats' module and its imports (its first entry is run by the page's script tag); empty without a coarse level. */
  earlySplats: string[];
}

/**
 * The files a page showing one model should fetch with its HTML (issue 20): the viewer's chunks for any
 * model; for a splat also Spark's chunk and its WASM, and where it has a coarse level the early splats'
 * module, which draws it before all of these (decision 038). The list comes from the build
 * (scripts/lib/viewer-preloads.ts).
 */
export function viewerPreloads({ splat, coarse = false }: { splat: boolean; coarse?: boolean }): ViewerPreloadList {
  return {
    modules: [...preloads.viewer, ...(splat ? preloads.splatModules : [])],
    fetches: splat && preloads.splatWasm ? [preloads.splatWasm] : [],
    earlySplats: splat && coarse ? preloads.earlySplats : [],
  };
}
