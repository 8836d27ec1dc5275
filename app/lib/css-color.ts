/**
 * Colours that records may carry into inline styles (announcement backgrounds and text): hex, rgb(a),
 * hsl(a) with plain numbers, or a named colour. Anything else (url(), var(), expressions) is refused.
 */
const HEX = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const FUNCTIONAL = /^(?:rgb|rgba|hsl|hsla)\(\s*[-+0-9.%\s,/deg]+\)$/i;
const NAMED = /^[a-z]{3,20}$/i;

export function isSafeCssColor(value: string): boolean {
  const v = value.trim();
  return v.length <= 64 && (HEX.test(v) || FUNCTIONAL.test(v) || NAMED.test(v));
}

/** The colour when it is safe, otherwise null (the caller then uses its default). */
export function safeCssColor(value: string | null | undefined): string | null {
  return value && isSafeCssColor(value) ? value.trim() : null;
}
