/**
 * Writing a zip of stored (uncompressed) entries: the package a USDZ is (formats/usdz.server.ts). USDZ asks for
 * exactly this — no compression, no encryption, each entry's data starting at a multiple of 64 bytes from the
 * start of the file, so a reader can map it in place — so entries can be aligned: the local header's extra field
 * is padded (the padding carries its own header id, as Pixar's usdzip does). No ZIP64: entries and the archive
 * stay below 4 GiB. Read back with formats/zip.ts.
 */
const LOCAL_FILE_HEADER = 0x04034b50;
const CENTRAL_FILE_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
/** The extra field's header id for the alignment padding (the one usdzip writes). */
const PADDING_EXTRA_ID = 0x1986;
/** Version 2.0: what a stored entry needs. */
const VERSION = 20;
/** 1980-01-01 00:00 in DOS time: the archive does not depend on when it was made. */
const DOS_DATE = (0 << 9) | (1 << 5) | 1;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** The CRC-32 a zip entry records (ISO 3309, the one zlib computes). */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = CRC_TABLE[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export interface ZipFile {
  /** Path inside the archive, '/'-separated, ASCII. */
  name: string;
  data: Uint8Array;
}

/** A zip of `files` in their order, stored; each entry's data starts at a multiple of `align` bytes (1: no padding). */
export function writeStoredZip(files: ZipFile[], { align = 1 }: { align?: number } = {}): Uint8Array {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const file of files) {
    if (!/^[\x20-\x7e]+$/.test(file.name) || file.name.startsWith("/") || file.name.split("/").includes("..")) throw new Error(`Unsafe name in zip: ${file.name}`);
    const name = encoder.encode(file.name);
    const crc = crc32(file.data);
    const fixed = 30 + name.length;
    // Padding needs at least its 4-byte header, so a gap of 1-3 bytes is widened by one alignment unit.
    let padding = align > 1 ? (align - ((offset + fixed) % align)) % align : 0;
    if (padding > 0 && padding < 4) padding += align;
    const local = new Uint8Array(fixed + padding);
    const view = new DataView(local.buffer);
    view.setUint32(0, LOCAL_FILE_HEADER, true);
    view.setUint16(4, VERSION, true);
    view.setUint16(6, 0, true); // flags
    view.setUint16(8, 0, true); // stored
    view.setUint16(10, 0, true); // time
    view.setUint16(12, DOS_DATE, true);
    view.setUint32(14, crc, true);
    view.setUint32(18, file.data.length, true);
    view.setUint32(22, file.data.length, true);
    view.setUint16(26, name.length, true);
    view.setUint16(28, padding, true);
    local.set(name, 30);
    if (padding > 0) {
      view.setUint16(fixed, PADDING_EXTRA_ID, true);
      view.setUint16(fixed + 2, padding - 4, true);
    }
    parts.push(local, file.data);

    const entry = new Uint8Array(46 + name.length);
    const entryView = new DataView(entry.buffer);
    entryView.setUint32(0, CENTRAL_FILE_HEADER, true);
    entryView.setUint16(4, VERSION, true);
    entryView.setUint16(6, VERSION, true);
    entryView.setUint16(12, 0, true);
    entryView.setUint16(14, DOS_DATE, true);
    entryView.setUint32(16, crc, true);
    entryView.setUint32(20, file.data.length, true);
    entryView.setUint32(24, file.data.length, true);
    entryView.setUint16(28, name.length, true);
    entryView.setUint32(42, offset, true);
    entry.set(name, 46);
    central.push(entry);
    offset += local.length + file.data.length;
    if (offset > 0xffffffff) throw new Error("The zip would exceed 4 GiB");
  }
  const directorySize = central.reduce((sum, entry) => sum + entry.length, 0);
  const end = new Uint8Array(22);
  const endView = new DataView(end.buffer);
  endView.setUint32(0, END_OF_CENTRAL_DIRECTORY, true);
  endView.setUint16(8, files.length, true);
  endView.setUint16(10, files.length, true);
  endView.setUint32(12, directorySize, true);
  endView.setUint32(16, offset, true);

  const zip = new Uint8Array(offset + directorySize + end.length);
  let at = 0;
  for (const part of [...parts, ...central, end]) {
    zip.set(part, at);
    at += part.length;
  }
  return zip;
}
