// What the renderer process (render-server.ts) does for the jobs that queue it: a thumbnail (one WebP) and a
// turntable (frames around the opening view, then ffmpeg makes an MP4 and a looping GIF, and the first frame is
// the poster). Each job reads a model file and writes its output files; it answers its timings, and throws a
// one-line reason when the model cannot be rendered or ffmpeg fails.
import { spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { z } from "zod";
import { viewerBackgroundSchema } from "~/domain/viewer-settings";
import { isModelFormat, type ModelFormat } from "~/formats/model-format";
import { openingCamera } from "~/viewer/camera-fit";
import { decodeModel, renderDecoded, renderModelThumbnail, toRgb8 } from "./render-thumbnail.server";
import { TURNTABLE, turntableView } from "./turntable";

const vec3 = z.tuple([z.number(), z.number(), z.number()]);
const viewOptionsSchema = z.object({
  camera: z.object({ position: vec3, target: vec3, fov: z.number().optional(), aspect: z.number().optional() }).nullable().optional(),
  background: viewerBackgroundSchema.nullable().optional(),
});

/** A job's input: the model file, its format, where to write, and the saved view (camera, background). */
export const renderJobSchema = z.object({
  job: z.enum(["thumbnail", "turntable"]),
  input: z.string().min(1),
  format: z.custom<ModelFormat>((value) => typeof value === "string" && isModelFormat(value), "not a model format"),
  /** The thumbnail's .webp file, or the turntable's folder. */
  output: z.string().min(1),
  view: viewOptionsSchema,
});
export type RenderJob = z.infer<typeof renderJobSchema>;
export type RenderTimings = Record<string, unknown>;

const round = (ms: number) => Math.round(ms);

async function thumbnail({ input, format, output, view }: RenderJob): Promise<RenderTimings> {
  const rendered = await renderModelThumbnail(new Uint8Array(await readFile(input)), format, view);
  await writeFile(output, rendered.image);
  return { kind: rendered.kind, ms: rendered.ms };
}

async function turntable({ input, format, output, view }: RenderJob): Promise<RenderTimings> {
  const t0 = performance.now();
  const model = await decodeModel(new Uint8Array(await readFile(input)), format);
  const t1 = performance.now();
  const { width, height, frames, fps, gifWidth } = TURNTABLE;
  const bounds = model.kind === "mesh" ? model.scene.bounds : model.cloud.bounds;
  const opening = openingCamera({ bounds, kind: model.kind, aspect: width / height, saved: view.camera });
  for (let i = 0; i < frames; i++) {
    const image = renderDecoded(model, { camera: turntableView(opening, i, frames), background: view.background, width, height });
    const pixels = sharp(toRgb8(image), { raw: { width: image.width, height: image.height, channels: 3 } });
    await writeFile(path.join(output, `frame-${String(i).padStart(3, "0")}.png`), await pixels.png({ compressionLevel: 1 }).toBuffer());
    if (i === 0) await writeFile(path.join(output, "poster.jpg"), await pixels.jpeg({ quality: 88 }).toBuffer());
  }
  const t2 = performance.now();
  const frameFiles = ["-framerate", String(fps), "-i", path.join(output, "frame-%03d.png")];
  await ffmpeg([...frameFiles, "-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "20", "-movflags", "+faststart", path.join(output, "turntable.mp4")]);
  await ffmpeg([
    ...frameFiles,
    "-vf",
    `scale=${gifWidth}:-1:flags=lanczos,split[a][b];[a]palettegen=stats_mode=diff[p];[b][p]paletteuse=dither=bayer:bayer_scale=4`,
    "-loop",
    "0",
    path.join(output, "turntable.gif"),
  ]);
  const t3 = performance.now();
  return { kind: model.kind, frames, ms: { decode: round(t1 - t0), render: round(t2 - t1), encode: round(t3 - t2) } };
}

function ffmpeg(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...args], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", (error: NodeJS.ErrnoException) => reject(new Error(error.code === "ENOENT" ? "ffmpeg is not installed on this server" : error.message)));
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg failed: ${stderr.trim().split("\n").pop() ?? code}`))));
  });
}

/** Runs one job to its end. */
export function runRenderJob(job: RenderJob): Promise<RenderTimings> {
  return job.job === "thumbnail" ? thumbnail(job) : turntable(job);
}
