import createDOMPurify, { type Config } from "dompurify";
import { JSDOM } from "jsdom";

/**
 * HTML sanitising for content we render as HTML (announcements). DOMPurify with an explicit
 * allow-list, server side through jsdom (DESIGN §2: sanitize-html kept a protocol-relative link).
 * Announcements are sanitised when saved and again when rendered.
 */
const window = new JSDOM("").window;
const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);

const ALLOWED_TAGS = ["a", "b", "strong", "i", "em", "u", "s", "br", "p", "span", "small", "code", "ul", "ol", "li"];
const ALLOWED_ATTR = ["href", "target", "rel", "title"];
/** Absolute http(s) and mailto links, or same-site paths starting with a single slash. */
const SAFE_HREF = /^(?:https?:\/\/[^\s/]|mailto:|\/(?![/\\]))/i;

const CONFIG: Config = {
  ALLOWED_TAGS,
  ALLOWED_ATTR,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  KEEP_CONTENT: true,
  RETURN_TRUSTED_TYPE: false,
};

purify.addHook("afterSanitizeAttributes", (node) => {
  if (node.nodeName !== "A") return;
  const href = node.getAttribute("href");
  if (href !== null && !SAFE_HREF.test(href.trim())) node.removeAttribute("href");
  if (node.getAttribute("target") === "_blank") node.setAttribute("rel", "noopener noreferrer");
  else node.removeAttribute("target");
});

/** Returns HTML with only the allow-listed tags and attributes; scripts, handlers and unsafe links removed. */
export function sanitizeHtml(html: string): string {
  return String(purify.sanitize(html, CONFIG)).trim();
}

/** The announcement bar's HTML (also used by the admin announcement endpoints when saving). */
export function sanitizeAnnouncementHtml(html: string): string {
  return sanitizeHtml(html);
}
