/**
 * Checking a SOG bundle on the server, in two strengths over one zip reader (formats/zip.ts) and one meta.json
 * reader (formats/sog.ts):
 * - sogBundleProblem: an upload that claims to be .sog (issue 17 item 10), read by byte ranges from storage; says
 *   in the owner's words why it is not a splat bundle (any SOG version: its meta.json must name, for each part,
 *   files the zip holds);
 * - inspectSogBundle: a delivery copy we wrote (splat-transform's SOG v2), in memory; its splat count and images.
 */
import { inflateRawSync } from "node:zlib";
import { missingFile, parseSogMeta, SOG_PARTS, sogFiles } from "./sog";
import { entryDataStart, findCentralDirectory, LOCAL_HEADER_BYTES, listZipEntries, readCentralDirectory, ZIP_TAIL_BYTES, zipEntryData, type ZipEntry } from "./zip";

/** Bytes [start, end) of the file being checked. */
export type ReadRange = (start: number, end: number) => Promise<Uint8Array>;

const MAX_META_BYTES = 1024 * 1024;

function inflated(entry: ZipEntry, stored: Uint8Array): Buffer {
  const data = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  return entry.method === 8 ? inflateRawSync(data, { maxOutputLength: Math.max(entry.size, 1) }) : data;
}

/** An entry of a zip held in memory, inflated. */
export function readZipEntry(zip: Uint8Array, entry: ZipEntry): Buffer {
  return inflated(entry, zipEntryData(zip, entry));
}

async function rangedEntries(size: number, read: ReadRange): Promise<ZipEntry[] | null> {
  const tailStart = Math.max(0, size - ZIP_TAIL_BYTES);
  const directory = findCentralDirectory(await read(tailStart, size), size);
  if (!directory || directory.count === 0) return null;
  return readCentralDirectory(await read(directory.offset, directory.offset + directory.size), directory.count);
}

async function rangedEntry(entry: ZipEntry, size: number, read: ReadRange): Promise<Buffer | null> {
  if (entry.localHeaderOffset + LOCAL_HEADER_BYTES > size) return null;
  const localHeader = await read(entry.localHeaderOffset, entry.localHeaderOffset + LOCAL_HEADER_BYTES);
  let start: number;
  try {
    start = entryDataStart(localHeader, entry);
  } catch {
    return null; // a damaged local header or a compression we do not read
  }
  if (start + entry.compressedSize > size) return null;
  return inflated(entry, await read(start, start + entry.compressedSize));
}

/** Why a zip is not a SOG bundle; null when its meta.json describes a splat whose files it holds. */
export async function sogBundleProblem(size: number, read: ReadRange): Promise<string | null> {
  const entries = await rangedEntries(size, read).catch(() => null);
  if (!entries) return "The .sog file is not a readable zip archive.";
  const metaEntry = entries.find((e) => e.name === "meta.json");
  if (!metaEntry) return "The .sog file has no meta.json.";
  if (metaEntry.compressedSize > MAX_META_BYTES || metaEntry.size > MAX_META_BYTES) return "The .sog file's meta.json is too large.";
  let meta: unknown;
  try {
    const bytes = await rangedEntry(metaEntry, size, read);
    if (!bytes) return "The .sog file's meta.json cannot be read.";
    meta = JSON.parse(bytes.toString("utf8"));
  } catch {
    return "The .sog file's meta.json is not JSON.";
  }
  if (!meta || typeof meta !== "object" || Array.isArray(meta)) return "The .sog file's meta.json does not describe a splat.";
  const record = meta as Record<string, unknown>;
  if ("count" in record && !(Number.isInteger(record.count) && (record.count as number) > 0)) {
    return "The .sog file's meta.json declares no splats.";
  }
  const names = new Set(entries.map((e) => e.name));
  for (const part of SOG_PARTS) {
    const described = record[part] as { files?: unknown } | undefined;
    const files = described && typeof described === "object" ? described.files : undefined;
    if (!Array.isArray(files) || files.length === 0) return `The .sog file's meta.json has no ${part} files.`;
    const missing = missingFile(files, names);
    if (missing !== undefined) return `The .sog file lacks ${String(missing)}, named in its meta.json.`;
  }
  return null;
}

export interface SogSummary {
  splats: number;
  files: string[];
}

/** Checks a SOG v2 bundle held in memory and returns its splat count; throws with a readable reason when it is not one. */
export function inspectSogBundle(zip: Uint8Array): SogSummary {
  const entries = listZipEntries(zip);
  const metaEntry = entries.find((entry) => entry.name === "meta.json");
  if (!metaEntry) throw new Error("the bundle has no meta.json");
  let meta: ReturnType<typeof parseSogMeta>;
  try {
    meta = parseSogMeta(JSON.parse(readZipEntry(zip, metaEntry).toString("utf8")));
  } catch (error) {
    throw new Error(`the bundle's meta.json is not SOG v2: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`);
  }
  const names = new Set(entries.map((entry) => entry.name));
  const files = sogFiles(meta);
  const missing = files.filter((file) => !names.has(file));
  if (missing.length) throw new Error(`the bundle lacks ${missing.join(", ")}`);
  const empty = files.find((file) => entries.find((e) => e.name === file)!.size === 0);
  if (empty) throw new Error(`the bundle's ${empty} is empty`);
  return { splats: meta.count, files };
}
