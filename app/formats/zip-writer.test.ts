import { randomBytes } from "node:crypto";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { entryDataStart, listZipEntries, LOCAL_HEADER_BYTES, zipEntryData } from "./zip";
import { crc32, writeStoredZip } from "./zip-writer";

/** zlib's CRC-32 of `bytes`, read from a gzip member's trailer (every Node has gzip; zlib.crc32 came in 20.15). */
function zlibCrc32(bytes: Uint8Array): number {
  const gz = gzipSync(bytes);
  return gz.readUInt32LE(gz.length - 8);
}

describe("stored zip writer", () => {
  it("computes zlib's CRC-32", () => {
    for (const length of [0, 1, 7, 1000, 65_537]) {
      const bytes = new Uint8Array(randomBytes(length));
      expect(crc32(bytes)).toBe(zlibCrc32(bytes));
    }
  });

  it("writes entries the zip reader reads back byte for byte, each starting at a multiple of 64 bytes when asked", () => {
    // Names of different lengths and sizes that leave every remainder, including gaps of 1-3 bytes (too small for padding).
    const files = Array.from({ length: 40 }, (_, i) => ({ name: `${"d/".repeat(i % 3)}file_${"x".repeat(i)}.bin`, data: new Uint8Array(randomBytes(i * 37 + (i % 5))) }));
    for (const align of [1, 64]) {
      const zip = writeStoredZip(files, { align });
      const entries = listZipEntries(zip);
      expect(entries.map((entry) => entry.name)).toEqual(files.map((file) => file.name));
      entries.forEach((entry, i) => {
        expect(entry.method).toBe(0);
        expect(Buffer.from(zipEntryData(zip, entry))).toEqual(Buffer.from(files[i].data));
        const start = entryDataStart(zip.subarray(entry.localHeaderOffset, entry.localHeaderOffset + LOCAL_HEADER_BYTES), entry);
        if (align > 1) expect(start % align).toBe(0);
        // The recorded CRC is the data's.
        const view = new DataView(zip.buffer, zip.byteOffset + entry.localHeaderOffset);
        expect(view.getUint32(14, true)).toBe(zlibCrc32(files[i].data));
      });
    }
  });

  it("refuses names that would leave the archive's folder", () => {
    expect(() => writeStoredZip([{ name: "../evil", data: new Uint8Array(1) }])).toThrow("Unsafe name");
    expect(() => writeStoredZip([{ name: "/abs", data: new Uint8Array(1) }])).toThrow("Unsafe name");
  });
});
