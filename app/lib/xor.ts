/**
 * The fixed-key XOR obfuscation of model downloads (SPEC §7). It deters casual hot-linking of
 * the raw file; it is not encryption. The key is configuration (MODEL_XOR_KEY) handed to the
 * browser with the page data.
 */
export function xorKeyFromString(key: string): Uint8Array {
  return new TextEncoder().encode(key);
}

/** For each phase p of a key, the four key bytes p, p+1, p+2, p+3 (wrapping) as one word in this machine's byte order. */
const wordsOfKey = new WeakMap<Uint8Array, Uint32Array>();

function keyWords(key: Uint8Array): Uint32Array {
  let words = wordsOfKey.get(key);
  if (!words) {
    words = new Uint32Array(key.length);
    const four = new Uint8Array(4);
    const word = new Uint32Array(four.buffer);
    for (let p = 0; p < key.length; p++) {
      for (let b = 0; b < 4; b++) four[b] = key[(p + b) % key.length];
      words[p] = word[0];
    }
    wordsOfKey.set(key, words);
  }
  return words;
}

/**
 * XORs `chunk` in place, where `offset` is the chunk's position in the whole stream. Four bytes at a
 * time where the chunk is word-aligned (a download of several MB is XORed on every request and, in
 * the browser, undone): the same result as byte by byte, about four times fewer steps.
 */
export function xorInPlace(chunk: Uint8Array, key: Uint8Array, offset: number): Uint8Array {
  const n = key.length;
  if (n === 0) return chunk;
  let k = offset % n;
  let i = 0;
  const misaligned = (4 - (chunk.byteOffset % 4)) % 4;
  for (const head = Math.min(misaligned, chunk.length); i < head; i++) {
    chunk[i] ^= key[k];
    k = k + 1 === n ? 0 : k + 1;
  }
  const wordCount = (chunk.length - i) >>> 2;
  if (wordCount > 0) {
    const words = new Uint32Array(chunk.buffer, chunk.byteOffset + i, wordCount);
    const pattern = keyWords(key);
    for (let w = 0; w < wordCount; w++) {
      words[w] ^= pattern[k];
      k += 4;
      if (k >= n) k %= n;
    }
    i += wordCount * 4;
  }
  for (; i < chunk.length; i++) {
    chunk[i] ^= key[k];
    k = k + 1 === n ? 0 : k + 1;
  }
  return chunk;
}
