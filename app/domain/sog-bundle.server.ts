/**
 * Reading a PlayCanvas SOG bundle (a zip of meta.json and WebP images) just far enough to check it:
 * the zip's central directory, meta.json, and that every image meta.json names is in the bundle.
 */
import { inflateRawSync } from "node:zlib";
import { z } from "zod";
import { listZipEntries, zipEntryData, type ZipEntry } from "~/lib/zip-entries";

/** The entries of a zip held in memory (app/lib/zip-entries.ts). */
export { listZipEntries };

export function readZipEntry(zip: Buffer, entry: ZipEntry): Buffer {
  const data = Buffer.from(zipEntryData(zip, entry));
  return entry.method === 8 ? inflateRawSync(data) : data;
}

const fileList = z.object({ files: z.array(z.string().min(1)).min(1) }).passthrough();

/** meta.json of a SOG v2 bundle, as far as we rely on it. */
const sogMetaSchema = z
  .object({
    version: z.literal(2),
    count: z.number().int().positive(),
    means: fileList,
    scales: fileList,
    quats: fileList,
    sh0: fileList,
    shN: fileList.optional(),
  })
  .passthrough();

export interface SogSummary {
  splats: number;
  files: string[];
}

/** Checks a SOG bundle and returns its splat count; throws with a readable reason when it is not one. */
export function inspectSogBundle(zip: Buffer): SogSummary {
  const entries = listZipEntries(zip);
  const metaEntry = entries.find((entry) => entry.name === "meta.json");
  if (!metaEntry) throw new Error("the bundle has no meta.json");
  let meta: z.infer<typeof sogMetaSchema>;
  try {
    meta = sogMetaSchema.parse(JSON.parse(readZipEntry(zip, metaEntry).toString("utf8")));
  } catch (error) {
    throw new Error(`the bundle's meta.json is not SOG v2: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`);
  }
  const names = new Set(entries.map((entry) => entry.name));
  const files = [meta.means, meta.scales, meta.quats, meta.sh0, meta.shN].flatMap((part) => part?.files ?? []);
  const missing = files.filter((file) => !names.has(file));
  if (missing.length) throw new Error(`the bundle lacks ${missing.join(", ")}`);
  for (const file of files) {
    const entry = entries.find((e) => e.name === file)!;
    if (entry.size === 0) throw new Error(`the bundle's ${file} is empty`);
  }
  return { splats: meta.count, files };
}
