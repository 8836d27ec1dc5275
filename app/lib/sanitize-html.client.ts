import createDOMPurify from "dompurify";
import { createHtmlSanitizer } from "./sanitize-html-rules";

/**
 * The same allow-list as the server (sanitize-html-rules.ts), in the browser: the admin editor's live
 * preview. The server still sanitises on save and on render; this only shows what it will keep.
 */
let sanitize: ((html: string) => string) | null = null;

export function sanitizeHtmlInBrowser(html: string): string {
  sanitize ??= createHtmlSanitizer(createDOMPurify(window));
  return sanitize(html);
}
