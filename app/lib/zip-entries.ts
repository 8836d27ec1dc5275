/**
 * The entries of a zip held in memory, for the server (sog-bundle.server.ts) and the browser (the viewer's
 * early splats read a SOG bundle before any library is loaded). No ZIP64: a SOG bundle stays far below 4 GiB.
 * Platform-neutral: bytes in, bytes out; inflating a deflated entry is the caller's (zlib or DecompressionStream).
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

export function listZipEntries(zip: Uint8Array): ZipEntry[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  // The end-of-central-directory record sits in the last 22 + 65535 (comment) bytes.
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === END_OF_CENTRAL_DIRECTORY) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error("not a zip file (no central directory)");
  const count = view.getUint16(end + 10, true);
  const offset = view.getUint32(end + 16, true);
  return readCentralDirectory(zip.subarray(offset), count);
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

/** An entry's bytes as stored (still deflated when `entry.method` is 8), checked against the zip's bounds. */
export function zipEntryData(zip: Uint8Array, entry: ZipEntry): Uint8Array {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const at = entry.localHeaderOffset;
  if (at + 30 > zip.length || view.getUint32(at, true) !== LOCAL_FILE_HEADER) throw new Error(`the zip entry ${entry.name} is damaged`);
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const data = zip.subarray(start, start + entry.compressedSize);
  if (data.length !== entry.compressedSize) throw new Error(`the zip entry ${entry.name} is truncated`);
  if (entry.method !== 0 && entry.method !== 8) throw new Error(`the zip entry ${entry.name} uses an unsupported compression method (${entry.method})`);
  return data;
}
