import { constants, crc32, deflateRawSync } from "node:zlib";

/**
 * A text compressed once whose copies differ only in one placeholder (a cached page's CSP nonce): each copy is
 * a gzip member (RFC 1952) put together from the text's parts, each deflated once on its own and ended with a
 * sync flush, and the copy's own placeholder value between them as a stored block (RFC 1951 §3.2.4). No
 * compression work per copy: the parts are copied and the CRC-32 chained over them.
 */
export interface GzipTemplate {
  /** The text's parts between the placeholders (uncompressed, for the CRC) and the same deflated. */
  readonly parts: ReadonlyArray<{ plain: Buffer; deflated: Buffer }>;
  /** The placeholder's length in bytes: every value filled in has it (0: no placeholder). */
  readonly holeBytes: number;
}

/** A gzip member's fixed header: deflate, no name or time, unknown OS. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff]);
/** The last block: stored, final, empty. */
const FINAL_BLOCK = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]);
/** A stored block holds at most this many bytes. */
const MAX_STORED = 0xffff;

/** The template of `text`; with no `placeholder` (null), every copy is the text itself. */
export function gzipTemplate(text: string, placeholder: string | null): GzipTemplate {
  const holeBytes = placeholder === null ? 0 : Buffer.byteLength(placeholder);
  if (placeholder !== null && (holeBytes === 0 || holeBytes > MAX_STORED)) throw new RangeError("the placeholder must be 1 to 65,535 bytes");
  const parts = (placeholder === null ? [text] : text.split(placeholder)).map((part) => {
    const plain = Buffer.from(part);
    // A sync flush ends the part's blocks on a byte boundary, none of them final, with no reference to another part.
    return { plain, deflated: deflateRawSync(plain, { level: 6, finishFlush: constants.Z_SYNC_FLUSH }) };
  });
  return { parts, holeBytes };
}

/** One gzip copy of the template's text with `value` in every placeholder's place. */
export function fillGzipTemplate(template: GzipTemplate, value: string | null): Buffer {
  const hole = Buffer.from(value ?? "");
  if (template.parts.length > 1 && hole.length !== template.holeBytes) throw new RangeError(`the value must be ${template.holeBytes} bytes, as the placeholder was`);
  const stored = Buffer.alloc(5);
  stored.writeUInt16LE(hole.length, 1);
  stored.writeUInt16LE(~hole.length & 0xffff, 3);
  const pieces: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  let size = 0;
  template.parts.forEach(({ plain, deflated }, index) => {
    if (index > 0) {
      pieces.push(stored, hole);
      crc = crc32(hole, crc);
      size += hole.length;
    }
    pieces.push(deflated);
    // Skipped when empty: Node 20's crc32 of an empty buffer that has been through deflateRawSync answers 0.
    if (plain.length > 0) crc = crc32(plain, crc);
    size += plain.length;
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  pieces.push(FINAL_BLOCK, trailer);
  return Buffer.concat(pieces);
}
