// The thumbnail renderer as its own process, so seconds of rendering never hold up the process that
// works the queue (a web process answers requests meanwhile). Run with tsx from the project root:
//   node --import tsx app/thumbnails/render-cli.ts <model file> <format> <output .webp> '<view options JSON>'
// Prints the timings as JSON; exits 1 with a one-line reason when the model cannot be rendered.
import { readFile, writeFile } from "node:fs/promises";
import { z } from "zod";
import { viewerBackgroundSchema } from "~/domain/viewer-settings";
import { isModelFormat } from "~/formats/model-format";
import { renderModelThumbnail } from "./render-thumbnail.server";

const optionsSchema = z.object({
  camera: z.object({ position: z.tuple([z.number(), z.number(), z.number()]), target: z.tuple([z.number(), z.number(), z.number()]), fov: z.number().optional(), aspect: z.number().optional() }).nullable().optional(),
  background: viewerBackgroundSchema.nullable().optional(),
});

async function main(): Promise<void> {
  const [input, format, output, options = "{}"] = process.argv.slice(2);
  if (!input || !output || !isModelFormat(format)) throw new Error("usage: render-cli <model file> <format> <output .webp> [options JSON]");
  const thumbnail = await renderModelThumbnail(new Uint8Array(await readFile(input)), format, optionsSchema.parse(JSON.parse(options)));
  await writeFile(output, thumbnail.image);
  process.stdout.write(`${JSON.stringify({ kind: thumbnail.kind, ms: thumbnail.ms })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
