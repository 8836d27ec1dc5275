/**
 * The fixed-key XOR obfuscation of model downloads (SPEC §7). It deters casual hot-linking of
 * the raw file; it is not encryption. The key is configuration (MODEL_XOR_KEY) handed to the
 * browser with the page data.
 */
export function xorKeyFromString(key: string): Uint8Array {
  return new TextEncoder().encode(key);
}

/** XORs `chunk` in place, where `offset` is the chunk's position in the whole stream. */
export function xorInPlace(chunk: Uint8Array, key: Uint8Array, offset: number): Uint8Array {
  if (key.length === 0) return chunk;
  let k = offset % key.length;
  for (let i = 0; i < chunk.length; i++) {
    chunk[i] ^= key[k];
    k = k + 1 === key.length ? 0 : k + 1;
  }
  return chunk;
}
