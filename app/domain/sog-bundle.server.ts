/**
 * Reading a PlayCanvas SOG bundle (a zip of meta.json and WebP images) just far enough to check it:
 * the zip's central directory, meta.json, and that every image meta.json names is in the bundle.
 */
import { inflateRawSync } from "node:zlib";
import { z } from "zod";

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

/** The entries of a zip held in memory (no ZIP64: a SOG bundle stays far below 4 GiB). */
export function listZipEntries(zip: Buffer): ZipEntry[] {
  // The end-of-central-directory record sits in the last 22 + 65535 (comment) bytes.
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === END_OF_CENTRAL_DIRECTORY) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error("not a zip file (no central directory)");
  const count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (offset + 46 > zip.length || zip.readUInt32LE(offset) !== CENTRAL_FILE_HEADER) throw new Error("the zip's central directory is damaged");
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    entries.push({
      method: zip.readUInt16LE(offset + 10),
      compressedSize: zip.readUInt32LE(offset + 20),
      size: zip.readUInt32LE(offset + 24),
      name: zip.toString("utf8", offset + 46, offset + 46 + nameLength),
      localHeaderOffset: zip.readUInt32LE(offset + 42),
    });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

export function readZipEntry(zip: Buffer, entry: ZipEntry): Buffer {
  const at = entry.localHeaderOffset;
  if (at + 30 > zip.length || zip.readUInt32LE(at) !== LOCAL_FILE_HEADER) throw new Error(`the zip entry ${entry.name} is damaged`);
  const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
  const data = zip.subarray(start, start + entry.compressedSize);
  if (data.length !== entry.compressedSize) throw new Error(`the zip entry ${entry.name} is truncated`);
  if (entry.method === 0) return data;
  if (entry.method === 8) return inflateRawSync(data);
  throw new Error(`the zip entry ${entry.name} uses an unsupported compression method (${entry.method})`);
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
