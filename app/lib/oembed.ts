import { EMBED_SIZE, embedCode, shareUrl } from "./embed-code";

/**
 * oEmbed (https://oembed.com, §2): a CMS given a model link asks `/oembed?url=…&format=json` and gets a "rich"
 * answer whose `html` is our iframe. Pure: the route looks the item up.
 */
export interface OembedRich {
  version: "1.0";
  type: "rich";
  title: string;
  author_name: string;
  author_url: string;
  provider_name: "Scanroom";
  provider_url: string;
  cache_age: number;
  html: string;
  width: number;
  height: number;
  thumbnail_url?: string;
  thumbnail_width?: number;
  thumbnail_height?: number;
}

export const OEMBED_CACHE_SECONDS = 3600;

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const MODEL_PATH = new RegExp(`^/(?:item|embed|viewer)/(${UUID})/?$`, "i");
const SHARE_PATH = /^\/s\/([A-Za-z0-9]{10})\/?$/;

/** Which model a URL names, if it is one of ours: a model page, viewer or embed, or a share link. */
export function parseModelUrl(url: string, appUrl: string): { itemId: string } | { slug: string } | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.origin !== new URL(appUrl).origin) return null;
  const model = MODEL_PATH.exec(parsed.pathname);
  if (model) return { itemId: model[1].toLowerCase() };
  const share = SHARE_PATH.exec(parsed.pathname);
  return share ? { slug: share[1] } : null;
}

/** The frame size: 640×480 unless the consumer's maxwidth/maxheight are smaller, keeping 4:3. */
export function fitEmbedSize({ maxwidth, maxheight }: { maxwidth?: number; maxheight?: number }) {
  const scale = Math.min(1, (maxwidth ?? Infinity) / EMBED_SIZE.width, (maxheight ?? Infinity) / EMBED_SIZE.height);
  return { width: Math.max(1, Math.floor(EMBED_SIZE.width * scale)), height: Math.max(1, Math.floor(EMBED_SIZE.height * scale)) };
}

export function buildOembed(input: {
  appUrl: string;
  item: { id: string; name: string; owner: { id: string; display_name: string | null } };
  size: { width: number; height: number };
  thumbnail: { url: string; width: number; height: number } | null;
}): OembedRich {
  const { appUrl, item, size, thumbnail } = input;
  return {
    version: "1.0",
    type: "rich",
    title: item.name,
    author_name: item.owner.display_name ?? "Anonymous",
    author_url: new URL(`/u/${item.owner.id}`, appUrl).toString(),
    provider_name: "Scanroom",
    provider_url: new URL("/", appUrl).toString(),
    cache_age: OEMBED_CACHE_SECONDS,
    html: embedCode(appUrl, item, size),
    width: size.width,
    height: size.height,
    ...(thumbnail ? { thumbnail_url: thumbnail.url, thumbnail_width: thumbnail.width, thumbnail_height: thumbnail.height } : {}),
  };
}

/** The discovery link a model page carries (oEmbed §4). */
export function oembedDiscoveryHref(appUrl: string, itemId: string): string {
  const endpoint = new URL("/oembed", appUrl);
  endpoint.searchParams.set("url", shareUrl(appUrl, itemId));
  endpoint.searchParams.set("format", "json");
  return endpoint.toString();
}
