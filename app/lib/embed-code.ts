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

export function embedCode(
  appUrl: string,
  item: { id: string; name: string },
  { width = EMBED_SIZE.width, height = EMBED_SIZE.height, ...options }: Partial<EmbedOptions> & { width?: number; height?: number } = {},
): string {
  const src = escapeAttribute(embedUrl(appUrl, item.id, options));
  return `<iframe src="${src}" title="${escapeAttribute(item.name)}" width="${width}" height="${height}" style="border:0" allow="fullscreen; xr-spatial-tracking" allowfullscreen></iframe>`;
}
