import createDOMPurify from "dompurify";
import { JSDOM } from "jsdom";
import { createHtmlSanitizer } from "./sanitize-html-rules";

/**
 * HTML sanitising for content we render as HTML (announcements). DOMPurify with an explicit
 * allow-list (sanitize-html-rules.ts), server side through jsdom (DESIGN §2: sanitize-html kept a
 * protocol-relative link). Announcements are sanitised when saved and again when rendered.
 */
const window = new JSDOM("").window;
const sanitize = createHtmlSanitizer(createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]));

/** Returns HTML with only the allow-listed tags and attributes; scripts, handlers and unsafe links removed. */
export function sanitizeHtml(html: string): string {
  return sanitize(html);
}

/** The announcement bar's HTML (also used by the admin announcement endpoints when saving). */
export function sanitizeAnnouncementHtml(html: string): string {
  return sanitizeHtml(html);
}
