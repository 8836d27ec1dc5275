import { inflateRawSync } from "node:zlib";
import { readCentralDirectory, type ZipEntry } from "./zip-entries";

// What is inside a zip that claims to be a PlayCanvas SOG bundle (issue 17 item 10): its meta.json
// must be JSON that describes the splat (means, scales, quats, sh0, each naming files the zip holds).
// The zip is read from its end (end-of-central-directory record, central directory), then meta.json.

export type ReadRange = (start: number, end: number) => Promise<Uint8Array>; // end exclusive

const EOCD_SIGNATURE = 0x06054b50;
const LOCAL_SIGNATURE = 0x04034b50;
const MAX_META_BYTES = 1024 * 1024;

function view(bytes: Uint8Array) {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

async function centralDirectory(size: number, read: ReadRange): Promise<ZipEntry[] | null> {
  const tailStart = Math.max(0, size - (22 + 65_535));
  const tail = await read(tailStart, size);
  const tv = view(tail);
  let at = -1;
  for (let i = tail.length - 22; i >= 0; i -= 1) {
    if (tv.getUint32(i, true) === EOCD_SIGNATURE) {
      at = i;
      break;
    }
  }
  if (at < 0) return null;
  const count = tv.getUint16(at + 10, true);
  const dirSize = tv.getUint32(at + 12, true);
  const dirOffset = tv.getUint32(at + 16, true);
  if (count === 0 || dirOffset + dirSize > size) return null;
  const dir = await read(dirOffset, dirOffset + dirSize);
  return readCentralDirectory(dir, count);
}

async function entryBytes(entry: ZipEntry, size: number, read: ReadRange): Promise<Buffer | null> {
  if (entry.localHeaderOffset + 30 > size) return null;
  const local = await read(entry.localHeaderOffset, entry.localHeaderOffset + 30);
  const lv = view(local);
  if (lv.getUint32(0, true) !== LOCAL_SIGNATURE) return null;
  const start = entry.localHeaderOffset + 30 + lv.getUint16(26, true) + lv.getUint16(28, true);
  if (start + entry.compressedSize > size) return null;
  const data = Buffer.from(await read(start, start + entry.compressedSize));
  if (entry.method === 0) return data;
  if (entry.method === 8) return inflateRawSync(data, { maxOutputLength: MAX_META_BYTES });
  return null;
}

const REQUIRED_PROPERTIES = ["means", "scales", "quats", "sh0"] as const;

/** Why a zip is not a SOG bundle; null when its meta.json describes a splat whose files it holds. */
export async function sogBundleProblem(size: number, read: ReadRange): Promise<string | null> {
  const entries = await centralDirectory(size, read).catch(() => null);
  if (!entries) return "The .sog file is not a readable zip archive.";
  const metaEntry = entries.find((e) => e.name === "meta.json");
  if (!metaEntry) return "The .sog file has no meta.json.";
  if (metaEntry.compressedSize > MAX_META_BYTES) return "The .sog file's meta.json is too large.";
  let meta: unknown;
  try {
    const bytes = await entryBytes(metaEntry, size, read);
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
  for (const property of REQUIRED_PROPERTIES) {
    const part = record[property] as { files?: unknown } | undefined;
    const files = part && typeof part === "object" ? part.files : undefined;
    if (!Array.isArray(files) || files.length === 0) return `The .sog file's meta.json has no ${property} files.`;
    const missing = files.find((file) => typeof file !== "string" || !names.has(file));
    if (missing !== undefined) return `The .sog file lacks ${String(missing)}, named in its meta.json.`;
  }
  return null;
}
