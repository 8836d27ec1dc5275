import { Transform } from "node:stream";
import { xorInPlace } from "./xor";

/** A stream that XORs bytes with the key as they pass (no buffering of the whole file). */
export function xorStream(key: Uint8Array): Transform {
  let offset = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const copy = Buffer.from(chunk);
      xorInPlace(copy, key, offset);
      offset += copy.length;
      callback(null, copy);
    },
  });
}
