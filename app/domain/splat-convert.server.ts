import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createWriteStream } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { Readable } from "node:stream";
import type { ModelFormat } from "~/formats/model-format";
import { runTool, ToolError } from "~/tools/run-tool.server";
import { validateSplatPly } from "~/formats/splat-ply";
import { deliveryInputName, splatTransformCli } from "./splat-delivery.server";
import { AppError } from "~/lib/errors";

/**
 * A stored splat of any of our formats as a standard 3DGS binary .ply (what the clean-up editor
 * reads): a valid one as it is, others converted by splat-transform (CPU, its own process group).
 */
export async function splatAsPly({ format, read }: { format: ModelFormat; read: () => Promise<Readable> }): Promise<Uint8Array> {
  if (format === "ply") {
    const bytes = await readAll(await read());
    if (isStandardSplatPly(bytes)) return bytes;
  }
  const workDir = await mkdtemp(path.join(os.tmpdir(), "scanroom-editor-"));
  try {
    const inputPath = path.join(workDir, format === "sog" ? "input.sog" : deliveryInputName(format));
    const outputPath = path.join(workDir, "output.ply");
    await pipeline(await read(), createWriteStream(inputPath));
    try {
      await runTool({
        command: process.execPath,
        args: [splatTransformCli(), "--quiet", "--no-tty", "--gpu", "cpu", "--overwrite", inputPath, outputPath],
        timeoutMs: 300_000,
        killGraceMs: 2_000,
      });
    } catch (error) {
      if (error instanceof ToolError && (error.reason === "exit" || error.reason === "timeout")) {
        throw new AppError("invalid_file", `This model's .${format} file could not be opened for editing (${error.message}).`);
      }
      throw error;
    }
    const bytes = await readFile(outputPath);
    if (!isStandardSplatPly(bytes)) throw new AppError("invalid_file", `This model's .${format} file did not convert to a gaussian splat .ply.`);
    return bytes;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

function isStandardSplatPly(bytes: Uint8Array): boolean {
  try {
    validateSplatPly(bytes);
    return true;
  } catch {
    return false;
  }
}

export async function readAll(stream: Readable): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
