import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { storage } from "~/storage/index.server";
import type { OutputFile, StageManifest } from "./manifest";

/**
 * A job's finished stages, kept twice: in its local working folder (fast resume on the same
 * machine) and in storage under items/{id}/scan/work/ (resume by any worker, on any machine). A
 * manifest is written only after every output it names is stored, so a manifest found means the
 * stage's work is complete.
 */
export class Checkpoints {
  readonly workPrefix: string;

  constructor(
    readonly itemId: string,
    readonly dir: string,
  ) {
    this.workPrefix = scanWorkPrefix(itemId);
  }

  local(relative: string) {
    return path.join(this.dir, ...relative.split("/"));
  }

  async readManifest(stage: string): Promise<StageManifest | null> {
    const file = this.local(`manifests/${stage}.json`);
    try {
      return JSON.parse(await readFile(file, "utf8")) as StageManifest;
    } catch {
      // not here: another worker may have finished it
    }
    try {
      const stream = await storage().createReadStream(`${this.workPrefix}manifests/${stage}.json`);
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(Buffer.from(chunk));
      const manifest = JSON.parse(Buffer.concat(chunks).toString("utf8")) as StageManifest;
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, JSON.stringify(manifest));
      return manifest;
    } catch {
      return null;
    }
  }

  /**
   * Hashes a stage's outputs (files, or folders taken whole) and stores each in storage unless it is
   * an unchanged copy of a stored file named in `sources` (e.g. a photo copied from the input).
   */
  async storeOutputs(paths: string[], sources: Map<string, string> = new Map()): Promise<OutputFile[]> {
    const files: string[] = [];
    for (const relative of paths) files.push(...(await listFiles(this.dir, relative)));
    const outputs: OutputFile[] = [];
    for (const relative of files.sort()) {
      const absolute = this.local(relative);
      const { size, sha256 } = await digestFile(absolute);
      const source = sources.get(relative);
      const key = source ?? `${this.workPrefix}${relative}`;
      if (!source) await storage().write(key, createReadStream(absolute));
      outputs.push({ path: relative, size, sha256, key });
    }
    return outputs;
  }

  async writeManifest(manifest: StageManifest) {
    const body = JSON.stringify(manifest);
    await storage().write(`${this.workPrefix}manifests/${manifest.stage}.json`, Buffer.from(body), { contentType: "application/json" });
    await mkdir(this.local("manifests"), { recursive: true });
    await writeFile(this.local(`manifests/${manifest.stage}.json`), body);
  }

  /**
   * Makes sure a finished stage's outputs are in the working folder exactly as recorded, fetching
   * any that are missing or differ (e.g. a tool killed with its worker went on writing) from storage.
   * Returns how many files were fetched.
   */
  async restoreOutputs(manifest: StageManifest): Promise<number> {
    let fetched = 0;
    for (const output of manifest.outputs) {
      const absolute = this.local(output.path);
      if (existsSync(absolute)) {
        const current = await digestFile(absolute);
        if (current.size === output.size && current.sha256 === output.sha256) continue;
      }
      await mkdir(path.dirname(absolute), { recursive: true });
      // Unlink first: the file may be a hard link to the stored copy we are about to read. SQLite
      // side files (a killed tool's write-ahead log) would be replayed into the restored database.
      for (const suffix of ["", "-wal", "-shm", "-journal"]) await rm(`${absolute}${suffix}`, { force: true });
      await pipeline(await storage().createReadStream(output.key), createWriteStream(absolute));
      const fetchedDigest = await digestFile(absolute);
      if (fetchedDigest.sha256 !== output.sha256) throw new Error(`the stored copy of ${output.path} does not match its manifest`);
      fetched++;
    }
    return fetched;
  }

  /** Stores one working file mid-stage (a trainer's checkpoint) under a key that names the stage's inputs. */
  async saveMidStage(scope: string, relative: string) {
    await storage().write(`${this.workPrefix}mid-stage/${scope}/${relative}`, createReadStream(this.local(relative)));
    await writeFile(`${this.local(relative)}.scope`, scope);
  }

  /**
   * Brings a mid-stage file back from storage unless the one here was saved under this scope (the stage's name,
   * version and inputs): a file left by a run with other inputs or an older version is not resumed. False when
   * there is none for this scope.
   */
  async restoreMidStage(scope: string, relative: string): Promise<boolean> {
    const absolute = this.local(relative);
    const marker = `${absolute}.scope`;
    if (existsSync(absolute) && existsSync(marker) && (await readFile(marker, "utf8")) === scope) return true;
    await rm(absolute, { force: true });
    await rm(marker, { force: true });
    const key = `${this.workPrefix}mid-stage/${scope}/${relative}`;
    if (!(await storage().stat(key))) return false;
    await mkdir(path.dirname(absolute), { recursive: true });
    const partial = `${absolute}.partial`;
    await pipeline(await storage().createReadStream(key), createWriteStream(partial));
    await rename(partial, absolute);
    await writeFile(marker, scope);
    return true;
  }

  /** Removes this job's working files here and in storage (the inputs and published outputs stay). */
  async clear() {
    await rm(this.dir, { recursive: true, force: true });
    await storage().deletePrefix(this.workPrefix);
  }
}

/** Where a scan's working files are mirrored in storage (removed after publishing, failing or cancelling). */
export function scanWorkPrefix(itemId: string): string {
  return `items/${itemId}/scan/work/`;
}

/** Files under `relative` (a file, or a folder walked recursively), as forward-slash relative paths. */
async function listFiles(root: string, relative: string): Promise<string[]> {
  const absolute = path.join(root, ...relative.split("/"));
  let info;
  try {
    info = await stat(absolute);
  } catch {
    return [];
  }
  if (info.isFile()) return [relative];
  if (!info.isDirectory()) return [];
  const entries = await readdir(absolute);
  const nested = await Promise.all(entries.map((entry) => listFiles(root, `${relative}/${entry}`)));
  return nested.flat();
}

export async function digestFile(file: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: hash.digest("hex") };
}
