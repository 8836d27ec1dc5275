import { readFileSync } from "node:fs";

/**
 * Reads whole tables of an SQLite database file without an SQLite library: Node 20 has no node:sqlite, and
 * the databases we read are COLMAP's, written by its tools and closed before we read them. Enough of the
 * file format (https://www.sqlite.org/fileformat.html) for that: table b-trees (interior and leaf pages),
 * records whose payload spills onto overflow pages, no write-ahead log (COLMAP leaves none once its tool
 * exits), no reserved bytes per page.
 */
export type SqliteCell = number | bigint | string | Uint8Array | null;

function varint(bytes: Uint8Array, at: number): [value: number, next: number] {
  let value = 0;
  for (let i = 0; i < 9; i++) {
    const byte = bytes[at + i];
    if (i === 8) return [value * 256 + byte, at + 9];
    value = value * 128 + (byte & 0x7f);
    if (byte < 0x80) return [value, at + i + 1];
  }
  throw new Error("unreachable");
}

const INT_SIZES = [0, 1, 2, 3, 4, 6, 8];

/** One record (the payload of a table row): its columns in order. */
function record(bytes: Uint8Array): SqliteCell[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [headerSize, afterSize] = varint(bytes, 0);
  const types: number[] = [];
  for (let p = afterSize; p < headerSize; ) {
    const [type, next] = varint(bytes, p);
    types.push(type);
    p = next;
  }
  let body = headerSize;
  return types.map((type): SqliteCell => {
    if (type === 0) return null;
    if (type >= 1 && type <= 6) {
      const size = INT_SIZES[type];
      let value = 0n;
      for (let i = 0; i < size; i++) value = (value << 8n) | BigInt(bytes[body + i]);
      body += size;
      value = BigInt.asIntN(size * 8, value);
      return Number.isSafeInteger(Number(value)) ? Number(value) : value;
    }
    if (type === 7) {
      body += 8;
      return view.getFloat64(body - 8, false);
    }
    if (type === 8 || type === 9) return type - 8;
    const size = type >= 12 ? Math.floor((type - 12) / 2) : 0;
    const data = bytes.subarray(body, body + size);
    body += size;
    return type % 2 === 0 ? data : new TextDecoder().decode(data);
  });
}

class SqliteFile {
  readonly pageSize: number;
  private readonly view: DataView;

  constructor(
    readonly bytes: Uint8Array,
    readonly name: string,
  ) {
    if (new TextDecoder().decode(bytes.subarray(0, 15)) !== "SQLite format 3") throw new Error(`${name} is not an SQLite database`);
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const rawPageSize = this.view.getUint16(16, false);
    this.pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
    if (bytes[20] !== 0) throw new Error(`${name}: pages with reserved bytes are not supported`);
  }

  /** A cell's payload: the part on its page, then the chain of overflow pages when it does not fit. */
  private payload(cell: number, size: number): Uint8Array {
    const usable = this.pageSize;
    const maxLocal = usable - 35;
    if (size <= maxLocal) return this.bytes.subarray(cell, cell + size);
    const minLocal = Math.floor(((usable - 12) * 32) / 255) - 23;
    const spill = minLocal + ((size - minLocal) % (usable - 4));
    const local = spill <= maxLocal ? spill : minLocal;
    const out = new Uint8Array(size);
    out.set(this.bytes.subarray(cell, cell + local), 0);
    let written = local;
    let page = this.view.getUint32(cell + local, false);
    while (written < size) {
      if (page === 0) throw new Error(`${this.name}: an overflow chain ends early`);
      const start = (page - 1) * this.pageSize;
      const take = Math.min(usable - 4, size - written);
      out.set(this.bytes.subarray(start + 4, start + 4 + take), written);
      written += take;
      page = this.view.getUint32(start, false);
    }
    return out;
  }

  /** Every row of the table b-tree rooted at `page`, each as [rowid, columns]. */
  rows(page: number, out: Array<[number, SqliteCell[]]> = []): Array<[number, SqliteCell[]]> {
    const start = (page - 1) * this.pageSize;
    const header = start + (page === 1 ? 100 : 0);
    const type = this.bytes[header];
    const cells = this.view.getUint16(header + 3, false);
    const pointers = header + (type === 0x05 ? 12 : 8);
    for (let i = 0; i < cells; i++) {
      const cell = start + this.view.getUint16(pointers + 2 * i, false);
      if (type === 0x05) {
        this.rows(this.view.getUint32(cell, false), out);
      } else if (type === 0x0d) {
        const [size, afterSize] = varint(this.bytes, cell);
        const [rowid, afterRowid] = varint(this.bytes, afterSize);
        out.push([rowid, record(this.payload(afterRowid, size))]);
      } else {
        throw new Error(`${this.name}: page ${page} is not a table b-tree page (type ${type})`);
      }
    }
    if (type === 0x05) this.rows(this.view.getUint32(header + 8, false), out);
    return out;
  }
}

/** The column names of a CREATE TABLE statement, and whether its first column is the rowid. */
function columnsOf(definition: string): { names: string[]; rowidFirst: boolean } {
  const names = definition
    .slice(definition.indexOf("(") + 1, definition.lastIndexOf(")"))
    .split(",")
    .map((column) => column.trim())
    .filter((column) => !/^(PRIMARY|UNIQUE|CHECK|FOREIGN|CONSTRAINT)\b/i.test(column))
    .map((column) => column.split(/\s+/)[0].replace(/["`[\]]/g, ""));
  return { names, rowidFirst: /INTEGER\s+PRIMARY\s+KEY/i.test(definition.slice(definition.indexOf("(") + 1).split(",")[0]) };
}

/** The rows of one table, as objects keyed by the column names of its CREATE TABLE statement. */
export function readSqliteTable(file: string, table: string): Array<Record<string, SqliteCell>> {
  const db = new SqliteFile(new Uint8Array(readFileSync(file)), file);
  const schema = db.rows(1).map(([, [type, name, , rootpage, sql]]) => ({ type, name, rootpage, sql }));
  const entry = schema.find((s) => s.type === "table" && s.name === table);
  if (!entry) throw new Error(`no table ${table} in ${file}`);
  const { names, rowidFirst } = columnsOf(String(entry.sql));
  return db.rows(Number(entry.rootpage)).map(([rowid, values]) =>
    Object.fromEntries(names.map((name, i) => [name, rowidFirst && i === 0 ? rowid : (values[i] ?? null)])),
  );
}
