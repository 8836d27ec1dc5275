import { embedQuery, type EmbedOptions } from "./embed-options";

/** The share link and iframe code of an item, on the site's public address. */
export function shareUrl(appUrl: string, itemId: string): string {
  return new URL(`/item/${itemId}`, appUrl).toString();
}

/** The size embed codes and oEmbed answers use unless asked otherwise (4:3). */
export const EMBED_SIZE = { width: 640, height: 480 } as const;

export function embedUrl(appUrl: string, itemId: string, options: Partial<EmbedOptions> = {}): string {
  return new URL(`/embed/${itemId}${embedQuery(options)}`, appUrl).toString();
}

function escapeAttribute(value: string): string {
  return value.replace(/[&"<>]/g, (c) => ({ "&": "&amp;", '"': "&quot;", "<": "&lt;", ">": "&gt;" })[c]!);
}

/**
 * The iframe code of an item: a fixed width × height, or (responsive) as wide as the page's container with
 * the same aspect ratio.
 */
export function embedCode(
  appUrl: string,
  item: { id: string; name: string },
  {
    width = EMBED_SIZE.width,
    height = EMBED_SIZE.height,
    responsive = false,
    ...options
  }: Partial<EmbedOptions> & { width?: number; height?: number; responsive?: boolean } = {},
): string {
  const src = escapeAttribute(embedUrl(appUrl, item.id, options));
  const attributes = `src="${src}" title="${escapeAttribute(item.name)}"`;
  const permissions = `allow="fullscreen; xr-spatial-tracking" allowfullscreen`;
  if (!responsive) return `<iframe ${attributes} width="${width}" height="${height}" style="border:0" ${permissions}></iframe>`;
  return (
    `<div style="position:relative;width:100%;aspect-ratio:${width}/${height}">` +
    `<iframe ${attributes} style="position:absolute;inset:0;width:100%;height:100%;border:0" ${permissions}></iframe></div>`
  );
}
