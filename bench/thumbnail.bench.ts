// Thumbnail renderer figures (issue 18 item 2), printed only (no pass/fail), one core, no GPU: for each
// model, the time to merely decode the file (the baseline) beside the time to render its 640×480
// thumbnail from the decoded model and to encode the WebP — guitar (90k splats, .ply), biker (153k, .spz),
// a generated 1M-splat .ply, and the textured cat.glb. BENCH_THUMBNAIL_OUT=<folder> also writes each
// thumbnail there as PNG, to look at.
//   npx tsx bench/thumbnail.bench.ts
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ModelFormat } from "../app/formats/model-format";
import { decodeModel, encodeImage, renderDecoded } from "../app/thumbnails/render-thumbnail.server";
import { SHARED_DATA } from "../tests/setup/shared-data";
import { generatePly, print } from "./bench-support";

const models: Array<{ name: string; format: ModelFormat; bytes: () => Uint8Array }> = [
  { name: "guitar.ply (90,854 splats)", format: "ply", bytes: () => readFileSync(path.join(SHARED_DATA, "splats/guitar.ply")) },
  { name: "biker.spz (152,746 splats)", format: "spz", bytes: () => readFileSync(path.join(SHARED_DATA, "splats/biker.spz")) },
  { name: "generated 1M-splat .ply", format: "ply", bytes: () => generatePly(1_000_000) },
  { name: "cat.glb (4,622 triangles, WebP textures)", format: "glb", bytes: () => readFileSync(path.join(SHARED_DATA, "models/cat.glb")) },
];
const out = process.env.BENCH_THUMBNAIL_OUT;
if (out) mkdirSync(out, { recursive: true });

const ms = (start: number) => `${Math.round(performance.now() - start)} ms`.padStart(9);
print(`${"model".padEnd(44)} ${"decode (baseline)".padStart(18)} ${"render".padStart(9)} ${"encode".padStart(9)}`);
for (const model of models) {
  const bytes = model.bytes();
  let t = performance.now();
  const decoded = await decodeModel(bytes, model.format);
  const decode = ms(t);
  t = performance.now();
  const image = renderDecoded(decoded);
  const render = ms(t);
  t = performance.now();
  await encodeImage(image);
  const encode = ms(t);
  print(`${model.name.padEnd(44)} ${decode.padStart(18)} ${render} ${encode}`);
  if (out) writeFileSync(path.join(out, `${model.name.split(" ")[0]}.png`), await encodeImage(image, "png"));
}
