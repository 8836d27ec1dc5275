import { readFileSync } from "node:fs";

/**
 * Reads the `cameras` table of a COLMAP database (SQLite) without an SQLite library: Node 20 has no
 * node:sqlite, and the sqlite3 command is not among the packages CI installs. Enough of the file format
 * (https://www.sqlite.org/fileformat.html) for small tables: table b-trees, records without overflow
 * pages, no write-ahead log (COLMAP leaves none once its tool exits).
 */
export interface ColmapDatabaseCamera {
  cameraId: number;
  /** COLMAP's camera model id (2: SIMPLE_RADIAL). */
  model: number;
  width: number;
  height: number;
  /** The camera's parameters (for SIMPLE_RADIAL: f, cx, cy, k). */
  params: number[];
  /** 1 when the focal length came from the image's EXIF. */
  priorFocalLength: number;
}

type Cell = number | bigint | string | Uint8Array | null;

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

function record(bytes: Uint8Array, at: number): Cell[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [headerSize, afterSize] = varint(bytes, at);
  const types: number[] = [];
  for (let p = afterSize; p < at + headerSize; ) {
    const [type, next] = varint(bytes, p);
    types.push(type);
    p = next;
  }
  let body = at + headerSize;
  return types.map((type): Cell => {
    const intSizes = [0, 1, 2, 3, 4, 6, 8];
    if (type === 0) return null;
    if (type >= 1 && type <= 6) {
      const size = intSizes[type];
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

/** Every row of the table b-tree rooted at `page`, each as [rowid, ...columns]. */
function tableRows(bytes: Uint8Array, pageSize: number, page: number): Array<[number, Cell[]]> {
  const start = (page - 1) * pageSize;
  const header = page === 1 ? 100 : 0;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const type = bytes[start + header];
  const cells = view.getUint16(start + header + 3, false);
  const pointers = start + header + (type === 0x05 ? 12 : 8);
  const rows: Array<[number, Cell[]]> = [];
  for (let i = 0; i < cells; i++) {
    const cell = start + view.getUint16(pointers + 2 * i, false);
    if (type === 0x05) {
      rows.push(...tableRows(bytes, pageSize, view.getUint32(cell, false)));
    } else if (type === 0x0d) {
      const [payload, afterPayload] = varint(bytes, cell);
      const [rowid, afterRowid] = varint(bytes, afterPayload);
      if (payload > pageSize - 35) throw new Error("a row spills onto overflow pages, which this reader does not follow");
      rows.push([rowid, record(bytes, afterRowid)]);
    } else {
      throw new Error(`page ${page} is not a table b-tree page (type ${type})`);
    }
  }
  if (type === 0x05) rows.push(...tableRows(bytes, pageSize, view.getUint32(start + header + 8, false)));
  return rows;
}

/** The rows of one table, as objects keyed by the column names of its CREATE TABLE statement. */
export function readSqliteTable(file: string, table: string): Array<Record<string, Cell>> {
  const bytes = new Uint8Array(readFileSync(file));
  if (new TextDecoder().decode(bytes.subarray(0, 15)) !== "SQLite format 3") throw new Error(`${file} is not an SQLite database`);
  const rawPageSize = new DataView(bytes.buffer, bytes.byteOffset).getUint16(16, false);
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
  if (bytes[20] !== 0) throw new Error("pages with reserved bytes are not supported");
  const schema = tableRows(bytes, pageSize, 1).map(([, [type, name, , rootpage, sql]]) => ({ type, name, rootpage, sql }));
  const entry = schema.find((s) => s.type === "table" && s.name === table);
  if (!entry) throw new Error(`no table ${table} in ${file}`);
  const definition = String(entry.sql);
  const columns = definition
    .slice(definition.indexOf("(") + 1, definition.lastIndexOf(")"))
    .split(",")
    .map((column) => column.trim().split(/\s+/)[0].replace(/["`[\]]/g, ""));
  const integerKey = /INTEGER\s+PRIMARY\s+KEY/i.test(definition.split(",")[0]) ? 0 : -1;
  return tableRows(bytes, pageSize, Number(entry.rootpage)).map(([rowid, values]) =>
    Object.fromEntries(columns.map((name, i) => [name, i === integerKey ? rowid : values[i] ?? null])),
  );
}

/** The cameras COLMAP's feature extractor wrote into a database. */
export function readColmapCameras(file: string): ColmapDatabaseCamera[] {
  return readSqliteTable(file, "cameras").map((row) => {
    const blob = row.params as Uint8Array;
    const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
    return {
      cameraId: Number(row.camera_id),
      model: Number(row.model),
      width: Number(row.width),
      height: Number(row.height),
      params: Array.from({ length: blob.byteLength / 8 }, (_, i) => view.getFloat64(i * 8, true)),
      priorFocalLength: Number(row.prior_focal_length),
    };
  });
}
