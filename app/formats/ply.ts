/**
 * The PLY header, read in one place (issue 39: it was parsed in five). Browser-safe: bytes in, no Node APIs.
 * Point clouds, meshes and 3DGS splats all start with the same ASCII header —
 * `ply`, `format <kind> <version>`, `element <name> <count>` each followed by its `property <type> <name>` (or
 * `property list <count type> <item type> <name>`) lines, then `end_header` — and a body in element order.
 */

export interface PlyProperty {
  name: string;
  type: string;
  /** Set for `property list …`: the type of the count before each list. */
  list?: { countType: string };
}

export interface PlyElement {
  name: string;
  count: number;
  properties: PlyProperty[];
}

export interface PlyHeader {
  /** "binary_little_endian", "binary_big_endian" or "ascii". */
  format: string;
  /** The format line's version ("1.0"). */
  version: string;
  /** In file order. */
  elements: PlyElement[];
  /** The header's text before `end_header` (to rewrite a line of it). */
  text: string;
  /** Byte offset of the body, just after `end_header\n`. */
  bodyOffset: number;
}

const END_HEADER = "end_header\n";
/** A header longer than this is not one we read. */
const MAX_HEADER_BYTES = 64 * 1024;

/** Bytes of each scalar type PLY names (both spellings). */
export const PLY_TYPE_BYTES: Readonly<Record<string, number>> = {
  char: 1, uchar: 1, int8: 1, uint8: 1,
  short: 2, ushort: 2, int16: 2, uint16: 2,
  int: 4, uint: 4, int32: 4, uint32: 4, float: 4, float32: 4,
  double: 8, float64: 8,
};

/** The header at the start of `bytes`; null when they do not begin with a whole PLY header (in its first 64 KiB). */
export function readPlyHeader(bytes: Uint8Array): PlyHeader | null {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, Math.min(bytes.length, MAX_HEADER_BYTES)));
  const end = head.indexOf(END_HEADER);
  if (!head.startsWith("ply\n") || end < 0) return null;
  const text = head.slice(0, end);
  const header: PlyHeader = { format: "", version: "", elements: [], text, bodyOffset: end + END_HEADER.length };
  for (const line of text.split("\n")) {
    const parts = line.trim().split(/\s+/);
    if (parts[0] === "format") {
      header.format = parts[1] ?? "";
      header.version = parts[2] ?? "";
    } else if (parts[0] === "element") header.elements.push({ name: parts[1] ?? "", count: Number(parts[2]), properties: [] });
    else if (parts[0] === "property") {
      const element = header.elements.at(-1);
      if (!element) continue; // a property before any element belongs to none: ignored (readers check what they need)
      if (parts[1] === "list") element.properties.push({ name: parts[4] ?? "", type: parts[3] ?? "", list: { countType: parts[2] ?? "" } });
      else element.properties.push({ name: parts[2] ?? "", type: parts[1] ?? "" });
    }
  }
  return header;
}

/** As readPlyHeader, but throws when there is no PLY header. */
export function parsePlyHeader(bytes: Uint8Array): PlyHeader {
  const header = readPlyHeader(bytes);
  if (!header) throw new Error("not a .ply file (no ply header)");
  return header;
}

/** Bytes of one record of `element`; null when that is not fixed (a list property, or a type PLY does not name). */
export function plyRecordBytes(element: PlyElement): number | null {
  let bytes = 0;
  for (const property of element.properties) {
    const size = PLY_TYPE_BYTES[property.type];
    if (property.list || !size) return null;
    bytes += size;
  }
  return bytes;
}

/**
 * The byte length a binary PLY must have, from its header (every element's count times its record size), or null
 * when that cannot be known (ASCII, list properties, unknown types, a bad count). Converters may silently pad a
 * truncated file with zeros, so uploads are checked against this.
 */
export function expectedPlyLength(head: Uint8Array): number | null {
  const header = readPlyHeader(head);
  if (!header || !/^binary_(little|big)_endian$/.test(header.format)) return null;
  let total = header.bodyOffset;
  for (const element of header.elements) {
    const record = plyRecordBytes(element);
    if (record === null || !Number.isInteger(element.count) || element.count < 0) return null;
    total += element.count * record;
  }
  return total;
}
