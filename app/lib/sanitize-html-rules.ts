import type { Config, DOMPurify } from "dompurify";

/**
 * The one allow-list for HTML we render (announcements). The server sanitises with it through jsdom
 * (sanitize-html.server.ts) when saving and rendering; the admin editor's live preview uses the same
 * rules in the browser (sanitize-html.client.ts), so the preview shows exactly what will be saved.
 */
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

/** Binds the allow-list to a DOMPurify instance and returns the sanitising function. */
export function createHtmlSanitizer(purify: DOMPurify): (html: string) => string {
  purify.addHook("afterSanitizeAttributes", (node) => {
    if (node.nodeName !== "A") return;
    const href = node.getAttribute("href");
    if (href !== null && !SAFE_HREF.test(href.trim())) node.removeAttribute("href");
    if (node.getAttribute("target") === "_blank") node.setAttribute("rel", "noopener noreferrer");
    else node.removeAttribute("target");
  });
  return (html) => String(purify.sanitize(html, CONFIG)).trim();
}
