/**
 * Reading a zip's directory and entries: the one zip reader, for the server (formats/sog-bundle.server.ts: a SOG
 * bundle in memory, or an upload read by byte ranges from storage) and the browser (the viewer's early splats read
 * a SOG bundle before any library is loaded). No ZIP64: a SOG bundle stays far below 4 GiB. Platform-neutral:
 * bytes in, bytes out; inflating a deflated entry is the caller's (zlib or DecompressionStream).
 */
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;

export interface ZipEntry {
  name: string;
  /** 0: stored, 8: deflated. */
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

const utf8 = new TextDecoder();

/** The end-of-central-directory record sits in a zip's last ZIP_TAIL_BYTES (22 bytes and a comment of up to 65,535). */
export const ZIP_TAIL_BYTES = 22 + 0xffff;
/** A local file header's fixed part; the entry's name and extra field follow it, then its data. */
export const LOCAL_HEADER_BYTES = 30;

export interface CentralDirectory {
  count: number;
  offset: number;
  size: number;
}

/**
 * Where the central directory of a zip of `zipSize` bytes lies, from `tail` (its last bytes, up to ZIP_TAIL_BYTES);
 * null when there is no end-of-central-directory record or it points past the file.
 */
export function findCentralDirectory(tail: Uint8Array, zipSize: number): CentralDirectory | null {
  const view = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  for (let i = tail.length - 22; i >= Math.max(0, tail.length - ZIP_TAIL_BYTES); i--) {
    if (view.getUint32(i, true) !== END_OF_CENTRAL_DIRECTORY) continue;
    const directory = { count: view.getUint16(i + 10, true), size: view.getUint32(i + 12, true), offset: view.getUint32(i + 16, true) };
    return directory.offset + directory.size <= zipSize ? directory : null;
  }
  return null;
}

export function listZipEntries(zip: Uint8Array): ZipEntry[] {
  const directory = findCentralDirectory(zip, zip.length);
  if (!directory) throw new Error("not a zip file (no central directory)");
  return readCentralDirectory(zip.subarray(directory.offset, directory.offset + directory.size), directory.count);
}

/** The `count` records of a zip's central directory, `dir` starting at its first one; throws when one is damaged. */
export function readCentralDirectory(dir: Uint8Array, count: number): ZipEntry[] {
  const view = new DataView(dir.buffer, dir.byteOffset, dir.byteLength);
  const entries: ZipEntry[] = [];
  let offset = 0;
  for (let i = 0; i < count; i++) {
    if (offset + 46 > dir.length || view.getUint32(offset, true) !== CENTRAL_FILE_HEADER) throw new Error("the zip's central directory is damaged");
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    entries.push({
      method: view.getUint16(offset + 10, true),
      compressedSize: view.getUint32(offset + 20, true),
      size: view.getUint32(offset + 24, true),
      name: utf8.decode(dir.subarray(offset + 46, offset + 46 + nameLength)),
      localHeaderOffset: view.getUint32(offset + 42, true),
    });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * Where `entry`'s data starts in the zip, from the LOCAL_HEADER_BYTES at its local header offset; throws when that
 * header is damaged or the entry's compression is neither stored nor deflated.
 */
export function entryDataStart(localHeader: Uint8Array, entry: ZipEntry): number {
  const view = new DataView(localHeader.buffer, localHeader.byteOffset, localHeader.byteLength);
  if (localHeader.length < LOCAL_HEADER_BYTES || view.getUint32(0, true) !== LOCAL_FILE_HEADER) throw new Error(`the zip entry ${entry.name} is damaged`);
  if (entry.method !== 0 && entry.method !== 8) throw new Error(`the zip entry ${entry.name} uses an unsupported compression method (${entry.method})`);
  return entry.localHeaderOffset + LOCAL_HEADER_BYTES + view.getUint16(26, true) + view.getUint16(28, true);
}

/** An entry's bytes as stored (still deflated when `entry.method` is 8), checked against the zip's bounds. */
export function zipEntryData(zip: Uint8Array, entry: ZipEntry): Uint8Array {
  const at = entry.localHeaderOffset;
  const start = entryDataStart(zip.subarray(at, at + LOCAL_HEADER_BYTES), entry);
  const data = zip.subarray(start, start + entry.compressedSize);
  if (data.length !== entry.compressedSize) throw new Error(`the zip entry ${entry.name} is truncated`);
  return data;
}
