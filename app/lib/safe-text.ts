/**
 * The one rule for outside text (issue 17 item 4): no string a client sends may hold a NUL character
 * (PostgreSQL refuses byte 0x00) or a lone UTF-16 surrogate (not encodable as UTF-8). Requests that
 * carry one are refused at the boundary: the API's body and query (app/api/route.server.ts) and every
 * URL query (server.ts).
 */
// A NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
// eslint-disable-next-line no-control-regex -- matching NUL is the point.
const UNSAFE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isSafeText(text: string): boolean {
  return !UNSAFE.test(text);
}

/** The path of the first string (value or object key) in `value` that breaks the rule, else null. */
export function findUnsafeText(value: unknown, path = ""): string | null {
  if (typeof value === "string") return isSafeText(value) ? null : path || "(value)";
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnsafeText(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (!isSafeText(key)) return at;
      const found = findUnsafeText(inner, at);
      if (found) return found;
    }
  }
  return null;
}

export const UNSAFE_TEXT_MESSAGE = "contains a NUL character or an unpaired surrogate, which text here may not hold.";
