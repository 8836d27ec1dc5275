import { env } from "~/env.server";
import { IMAGE_SIZE_HEAD_BYTES, readImageSize } from "~/lib/image-size";
import { buildOembed, fitEmbedSize, parseModelUrl } from "~/lib/oembed";
import { storage } from "~/storage/index.server";
import { notFound } from "~/lib/errors";
import { itemPageShows } from "~/lib/public-page-cache";
import { presentItem } from "./item-presenter";
import { getVisibleItem } from "./item-access.server";
import { findSharedItemId } from "./share-links.server";

/**
 * GET /oembed?url=…&format=json: the oEmbed answer for a link to one of our models that anyone with the link
 * may see (public or unlisted); private, unknown and foreign URLs are 404 (oEmbed §2.3.6).
 */
export async function getOembed({ url, maxwidth, maxheight }: { url: string; maxwidth?: number; maxheight?: number }) {
  const appUrl = env().APP_URL;
  const target = parseModelUrl(url, appUrl);
  const itemId = !target ? null : "itemId" in target ? target.itemId : await findSharedItemId({ slug: target.slug });
  if (!itemId) throw notFound("Model");
  const item = await getVisibleItem({ itemId, viewerId: null });
  const dto = presentItem(item, null);
  const thumbnailSize = item.thumbnailKey ? await imageSizeOf(item.thumbnailKey) : null;
  const oembed = buildOembed({
    appUrl,
    item: dto,
    size: fitEmbedSize({ maxwidth, maxheight }),
    thumbnail: dto.thumbnail_url && thumbnailSize ? { url: new URL(dto.thumbnail_url, appUrl).toString(), ...thumbnailSize } : null,
  });
  // What the answer shows, for a cache that keeps it until that changes; a share link's answer also depends on the link.
  return { oembed, shows: target && "itemId" in target ? itemPageShows(dto) : null };
}

/** A stored image's pixel size (oEmbed requires it with a thumbnail), or null when it cannot be read. */
async function imageSizeOf(key: string) {
  const head = await storage()
    .readHead(key, IMAGE_SIZE_HEAD_BYTES)
    .catch(() => null);
  return head ? readImageSize(head) : null;
}
