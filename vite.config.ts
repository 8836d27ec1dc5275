import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { sparkWasmAsFile } from "./scripts/lib/spark-wasm-file";
import { viewerPreloads } from "./scripts/lib/viewer-preloads";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: false;
  }
}

export default defineConfig({
  server: { port: 3000 },
  plugins: [
    remix({
      // A separate build folder per concurrent test run, when asked (SCANROOM_BUILD_DIR).
      buildDirectory: process.env.SCANROOM_BUILD_DIR ?? "build",
      ignoredRouteFiles: ["**/*.test.*", "**/.*"],
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
    tsconfigPaths(),
    sparkWasmAsFile(),
    viewerPreloads(),
  ],
  build: { assetsInlineLimit: 0, chunkSizeWarningLimit: 2000 },
  optimizeDeps: { include: ["three", "@sparkjsdev/spark"] },
});
