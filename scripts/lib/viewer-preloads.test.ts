import type { OutputAsset, OutputBundle, OutputChunk } from "rollup";
import { describe, expect, it } from "vitest";
import { findViewerPreloads } from "./viewer-preloads";

function chunk(fileName: string, { facade = null, modules = [], imports = [] }: { facade?: string | null; modules?: string[]; imports?: string[] }): OutputChunk {
  return { type: "chunk", fileName, facadeModuleId: facade, moduleIds: modules, imports } as unknown as OutputChunk;
}
const asset = (fileName: string) => ({ type: "asset", fileName }) as unknown as OutputAsset;
const bundleOf = (...outputs: Array<OutputChunk | OutputAsset>): OutputBundle => Object.fromEntries(outputs.map((output) => [output.fileName, output]));

describe("findViewerPreloads", () => {
  const root = "/repo";
  const bundle = bundleOf(
    chunk("assets/entry.client-1.js", { facade: `${root}/app/entry.client.tsx`, imports: ["assets/components-1.js"] }),
    chunk("assets/components-1.js", { modules: [`${root}/node_modules/react-dom/index.js`] }),
    chunk("assets/index-1.js", { facade: `${root}/app/viewer/index.ts`, imports: ["assets/three.module-1.js", "assets/components-1.js"] }),
    chunk("assets/three.module-1.js", { modules: [`${root}/node_modules/three/build/three.module.js`], imports: ["assets/three.core-1.js"] }),
    chunk("assets/three.core-1.js", { modules: [`${root}/node_modules/three/build/three.core.js`] }),
    chunk("assets/spark.module-1.js", { modules: [`${root}/node_modules/@sparkjsdev/spark/dist/spark.module.js?commonjs`], imports: ["assets/three.module-1.js", "assets/spark-extra-1.js"] }),
    chunk("assets/spark-extra-1.js", { modules: [`${root}/node_modules/@sparkjsdev/spark/dist/extra.js`] }),
    chunk("assets/early-splats-1.js", { modules: [`${root}/app/viewer/download.ts`, `${root}/app/viewer/early-splats/index.ts`] }),
    chunk("assets/load-gltf-1.js", { facade: `${root}/app/viewer/load-gltf.ts`, imports: ["assets/three.module-1.js"] }),
    asset("assets/spark-1.wasm"),
    asset("assets/theme-1.css"),
  );

  it("names the viewer's chunk with everything it imports statically, Spark's chunks apart, Spark's WASM and the early splats' module", () => {
    expect(findViewerPreloads(bundle)).toEqual({
      viewer: ["/assets/index-1.js", "/assets/three.module-1.js", "/assets/three.core-1.js", "/assets/components-1.js"],
      splatModules: ["/assets/spark.module-1.js", "/assets/spark-extra-1.js"],
      splatWasm: "/assets/spark-1.wasm",
      earlySplats: ["/assets/early-splats-1.js"],
    });
  });

  it("lists nothing it cannot find (a build without the viewer)", () => {
    expect(findViewerPreloads(bundleOf(chunk("assets/entry.client-1.js", { facade: `${root}/app/entry.client.tsx` })))).toEqual({ viewer: [], splatModules: [], splatWasm: null, earlySplats: [] });
  });
});
