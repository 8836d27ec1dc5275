// A Vite build plugin: Spark 2.x ships its WebAssembly inlined in spark.module.js as a 2.2 MB base64
// string (decoded and compiled on the main thread as the module runs). The build takes it out into its own
// hashed asset (assets/spark-….wasm, ~1.6 MB, cached like every asset) and compiles it from there, so the
// JavaScript the viewer parses is ~0.4 MB smaller, and the WASM is fetched in parallel and kept apart from
// the JS (issue 20). Fails the build when the pattern is not found (a Spark upgrade must be looked at).
import type { Plugin } from "vite";

const SPARK_MODULE = /@sparkjsdev[\\/]spark[\\/]dist[\\/]spark\.module\.js$/;
const INLINED_WASM = /const WASM = decode64\("([A-Za-z0-9+/=]+)"\)\.buffer;\s*const WASM_MODULE = WebAssembly\.compile\(WASM\);/;

export function sparkWasmAsFile(): Plugin {
  return {
    name: "scanroom-spark-wasm-file",
    apply: "build",
    transform(code, id) {
      if (!SPARK_MODULE.test(id.split("?")[0]!)) return null;
      const match = INLINED_WASM.exec(code);
      if (!match) this.error("spark.module.js: the inlined WASM was not found (has Spark's bundle changed?)");
      const reference = this.emitFile({ type: "asset", name: "spark.wasm", source: Buffer.from(match[1]!, "base64") });
      const load =
        `const WASM_MODULE = fetch(import.meta.ROLLUP_FILE_URL_${reference})` +
        `.then((response) => { if (!response.ok) throw new Error("Failed to load the splat decoder: " + response.status); return response.arrayBuffer(); })` +
        `.then((bytes) => WebAssembly.compile(bytes));`;
      return { code: code.replace(match[0], load), map: null };
    },
  };
}
