#!/usr/bin/env node
// Writes a brotli (.br, quality 11) and a gzip (.gz, level 9) copy next to every compressible file of the
// client build (scripts, styles, Spark's WASM, the Draco/Basis decoders, fonts that are not already
// compressed), so the server sends them as they are instead of compressing each request on its main thread
// (app/lib/precompressed-static.server.ts; issue 20: on-the-fly gzip made the viewer's scripts arrive late).
// Runs after every `remix vite:build`; `node scripts/precompress-build.mjs [dir]` (default build/client).
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const COMPRESSIBLE = new Set([".js", ".mjs", ".css", ".wasm", ".svg", ".json", ".ttf", ".eot", ".txt"]);
/** Below this, compressing saves less than a packet (the compression middleware's own threshold). */
const MIN_BYTES = 1024;
const brotli = promisify(brotliCompress);
const deflate = promisify(gzip);

function* compressibleFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* compressibleFiles(file);
    else if (entry.isFile() && COMPRESSIBLE.has(path.extname(entry.name)) && statSync(file).size >= MIN_BYTES) yield file;
  }
}

/** Writes `file.br` and `file.gz` where they are smaller than `file`; returns bytes before and after. */
async function precompress(file) {
  const body = readFileSync(file);
  const [br, gz] = await Promise.all([
    brotli(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
    deflate(body, { level: 9 }),
  ]);
  if (br.length < body.length) writeFileSync(`${file}.br`, br);
  if (gz.length < body.length) writeFileSync(`${file}.gz`, gz);
  return { raw: body.length, br: Math.min(br.length, body.length) };
}

export async function precompressTree(dir) {
  const files = [...compressibleFiles(dir)];
  let raw = 0;
  let br = 0;
  // zlib's async calls run on libuv's thread pool: a few files at a time use every core.
  for (let i = 0; i < files.length; i += 4) {
    for (const sizes of await Promise.all(files.slice(i, i + 4).map(precompress))) {
      raw += sizes.raw;
      br += sizes.br;
    }
  }
  return { files: files.length, raw, br };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const dir = path.resolve(root, process.argv[2] ?? "build/client");
  const started = Date.now();
  const { files, raw, br } = await precompressTree(dir);
  const mb = (bytes) => (bytes / 1024 / 1024).toFixed(2);
  process.stdout.write(
    `precompressed ${files} files in ${path.relative(root, dir)}: ${mb(raw)} MB → ${mb(br)} MB brotli (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
  );
}
