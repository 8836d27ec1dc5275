import type { MetaDescriptor } from "@remix-run/react";
import { embedUrl, EMBED_SIZE, shareUrl } from "../lib/embed-code";
import { oembedDiscoveryHref } from "../lib/oembed";
import { publicEnvFromMatches } from "../components/use-public-env";

/**
 * Link previews for a model (/item/{id}, /embed/{id}): Open Graph and Twitter card tags with the thumbnail,
 * and oEmbed discovery so pasting the link into a CMS embeds the model. Only for models anyone with the link
 * may see — a private model's page (its owner's) gets none.
 */
interface SharedItem {
  id: string;
  name: string;
  description: string | null;
  visibility: string;
  thumbnail_url: string | null;
  /** The turntable's first frame (a JPEG, which every network shows) is the card's picture once there is one. */
  turntable?: { poster_url: string | null } | null;
  owner: { display_name: string | null };
}

const DESCRIPTION_MAX = 200;

function describe(item: SharedItem): string {
  const text = item.description?.replace(/\s+/g, " ").trim() || `A 3D model by ${item.owner.display_name ?? "Anonymous"} on Scanroom.`;
  return text.length > DESCRIPTION_MAX ? `${text.slice(0, DESCRIPTION_MAX - 1)}…` : text;
}

export function itemSocialMeta(item: SharedItem, appUrl: string): MetaDescriptor[] {
  if (item.visibility === "private") return [];
  const title = `${item.name} — Scanroom`;
  const description = describe(item);
  const picture = item.turntable?.poster_url ?? item.thumbnail_url;
  const image = picture ? new URL(picture, appUrl).toString() : null;
  return [
    { name: "description", content: description },
    { property: "og:site_name", content: "Scanroom" },
    { property: "og:type", content: "website" },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: shareUrl(appUrl, item.id) },
    ...(image ? [{ property: "og:image", content: image }, { property: "og:image:alt", content: item.name }] : []),
    // A player card where the site runs on https (Twitter requires it), otherwise a summary with the thumbnail.
    ...(image && appUrl.startsWith("https:")
      ? [
          { name: "twitter:card", content: "player" },
          { name: "twitter:player", content: embedUrl(appUrl, item.id) },
          { name: "twitter:player:width", content: String(EMBED_SIZE.width) },
          { name: "twitter:player:height", content: String(EMBED_SIZE.height) },
        ]
      : [{ name: "twitter:card", content: image ? "summary_large_image" : "summary" }]),
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
    ...(image ? [{ name: "twitter:image", content: image }] : []),
    { tagName: "link", rel: "canonical", href: shareUrl(appUrl, item.id) },
    { tagName: "link", rel: "alternate", type: "application/json+oembed", href: oembedDiscoveryHref(appUrl, item.id), title: item.name },
  ];
}

/** The site's public address from the root loader's data (meta functions see it through `matches`). */
export function appUrlFromMatches(matches: Array<{ id: string; data: unknown }>): string | null {
  return publicEnvFromMatches(matches)?.appUrl ?? null;
}
