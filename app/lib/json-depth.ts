/**
 * How deeply JSON text nests, read from the raw text before anything parses it (docs/decisions/039): a scan of
 * the brackets outside strings, in a loop, so a body nested 20,000 deep costs one pass over its bytes and no
 * stack. Everything that walks a parsed body (the text rule, zod, JSON.stringify) recurses per level.
 */

/** The deepest nesting a request body may have: an array or object inside at most 63 others. */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]); // [ {
const CLOSERS = new Set([0x5d, 0x7d]); // ] }

/** Whether `text` opens more than `maxDepth` arrays or objects inside each other. Brackets inside strings do not count. */
export function exceedsJsonDepth(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i++; // the escaped character (a quote or a backslash) neither ends nor starts anything
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (OPENERS.has(code)) {
      if (++depth > maxDepth) return true;
    } else if (CLOSERS.has(code)) {
      depth--;
    }
  }
  return false;
}
