// A model's turntable as its own process (like render-cli.ts): frames rendered on the CPU around the opening view,
// then ffmpeg makes an MP4 (H.264) and a looping GIF, and the first frame is the poster (JPEG). Run from the root:
//   node --import tsx app/thumbnails/turntable-cli.ts <model file> <format> <output dir> '<view options JSON>'
// Writes turntable.mp4, turntable.gif and poster.jpg into the output dir; prints the timings as JSON; exits 1 with
// a one-line reason when the model cannot be rendered or ffmpeg fails.
import { spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { z } from "zod";
import { viewerBackgroundSchema } from "~/domain/viewer-settings";
import { isModelFormat } from "~/formats/model-format";
import { openingCamera } from "~/viewer/camera-fit";
import { decodeModel, renderDecoded, toRgb8 } from "./render-thumbnail.server";
import { TURNTABLE, turntableView } from "./turntable";

const vec3 = z.tuple([z.number(), z.number(), z.number()]);
const optionsSchema = z.object({
  camera: z.object({ position: vec3, target: vec3, fov: z.number().optional(), aspect: z.number().optional() }).nullable().optional(),
  background: viewerBackgroundSchema.nullable().optional(),
});

function ffmpeg(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...args], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", (error: NodeJS.ErrnoException) => reject(new Error(error.code === "ENOENT" ? "ffmpeg is not installed on this server" : error.message)));
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg failed: ${stderr.trim().split("\n").pop() ?? code}`))));
  });
}

async function main(): Promise<void> {
  const [input, format, outDir, options = "{}"] = process.argv.slice(2);
  if (!input || !outDir || !isModelFormat(format)) throw new Error("usage: turntable-cli <model file> <format> <output dir> [options JSON]");
  const view = optionsSchema.parse(JSON.parse(options));
  const t0 = performance.now();
  const model = await decodeModel(new Uint8Array(await readFile(input)), format);
  const t1 = performance.now();
  const { width, height, frames, fps, gifWidth } = TURNTABLE;
  const bounds = model.kind === "mesh" ? model.scene.bounds : model.cloud.bounds;
  const opening = openingCamera({ bounds, kind: model.kind, aspect: width / height, saved: view.camera });
  for (let i = 0; i < frames; i++) {
    const image = renderDecoded(model, { camera: turntableView(opening, i, frames), background: view.background, width, height });
    const pixels = sharp(toRgb8(image), { raw: { width: image.width, height: image.height, channels: 3 } });
    await writeFile(path.join(outDir, `frame-${String(i).padStart(3, "0")}.png`), await pixels.png({ compressionLevel: 1 }).toBuffer());
    if (i === 0) await writeFile(path.join(outDir, "poster.jpg"), await pixels.jpeg({ quality: 88 }).toBuffer());
  }
  const t2 = performance.now();
  const frameFiles = ["-framerate", String(fps), "-i", path.join(outDir, "frame-%03d.png")];
  await ffmpeg([...frameFiles, "-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "20", "-movflags", "+faststart", path.join(outDir, "turntable.mp4")]);
  await ffmpeg([
    ...frameFiles,
    "-vf",
    `scale=${gifWidth}:-1:flags=lanczos,split[a][b];[a]palettegen=stats_mode=diff[p];[b][p]paletteuse=dither=bayer:bayer_scale=4`,
    "-loop",
    "0",
    path.join(outDir, "turntable.gif"),
  ]);
  const t3 = performance.now();
  const round = (ms: number) => Math.round(ms);
  process.stdout.write(`${JSON.stringify({ kind: model.kind, frames, ms: { decode: round(t1 - t0), render: round(t2 - t1), encode: round(t3 - t2) } })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
