// Thumbnail renderer figures (issue 18 item 2), printed only (no pass/fail), one core, no GPU: for each
// model, the time to merely decode the file (the baseline) beside the time to render its 640×480
// thumbnail from the decoded model and to encode the WebP — guitar (90k splats, .ply), biker (153k, .spz),
// a generated 1M-splat .ply, and the textured cat.glb. BENCH_THUMBNAIL_OUT=<folder> also writes each
// thumbnail there as PNG, to look at. Then thumbnails in a row through the renderer process, kept or new per job.
//   npx tsx bench/thumbnail.bench.ts
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ModelFormat } from "../app/formats/model-format";
import { decodeModel, encodeImage, renderDecoded } from "../app/thumbnails/render-thumbnail.server";
import { RendererProcess } from "../app/thumbnails/renderer-process.server";
import { cpuSeconds } from "../tests/setup/processes";
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

// The renderer process (docs/decisions/062-one-renderer-process.md): JOBS thumbnails of cat.glb in a row, as the
// thumbnail queue sends them, through one kept process, beside the baseline of a new process per job (what each
// job paid before: Node's start and the renderers' compilation). CPU is this process's and its children's.
const JOBS = Number(process.env.BENCH_RENDER_JOBS ?? 8);
const work = mkdtempSync(path.join(os.tmpdir(), "scanroom-thumbnail-bench-"));
const job = { job: "thumbnail" as const, input: path.join(SHARED_DATA, "models/cat.glb"), format: "glb" as const, output: path.join(work, "cat.webp"), view: { camera: null, background: null } };
async function renderInRow(renderer: RendererProcess): Promise<{ seconds: number; cpu: number }> {
  const cpu0 = cpuSeconds(process.pid)!;
  const t0 = performance.now();
  for (let i = 0; i < JOBS; i++) {
    const outcome = await renderer.render(job, 60_000);
    if ("failed" in outcome) throw new Error(outcome.failed);
  }
  const seconds = (performance.now() - t0) / 1000;
  renderer.close();
  await new Promise((resolve) => setTimeout(resolve, 500));
  return { seconds, cpu: cpuSeconds(process.pid)! - cpu0 };
}
// The baseline: with no memory allowed, the renderer process leaves after every job and the next one starts another.
const perJob = await renderInRow(new RendererProcess({ maxRssBytes: 0 }));
const kept = await renderInRow(new RendererProcess());
rmSync(work, { recursive: true, force: true });
print("");
print(`${JOBS} thumbnails of cat.glb in a row            wall s   CPU s   CPU s per job`);
print(`a new process per job (baseline)              ${perJob.seconds.toFixed(2).padStart(6)}  ${perJob.cpu.toFixed(2).padStart(6)}  ${(perJob.cpu / JOBS).toFixed(2).padStart(6)}`);
print(`one kept renderer process                     ${kept.seconds.toFixed(2).padStart(6)}  ${kept.cpu.toFixed(2).padStart(6)}  ${(kept.cpu / JOBS).toFixed(2).padStart(6)}`);
print(`ratio (baseline / kept)                       ${(perJob.seconds / kept.seconds).toFixed(2).padStart(6)}  ${(perJob.cpu / kept.cpu).toFixed(2).padStart(6)}`);
