import { env } from "~/env.server";
import { embedUrl, shareUrl } from "~/lib/embed-code";
import { listAnnotations, type AnnotationDto } from "./annotations.server";
import { resolveRegisteredEmbed, watermarkShown } from "./embeds.server";
import { isAppError } from "~/lib/errors";
import { hasSomethingToView } from "./item-presenter";
import { getVisibleItem, type ItemWithOwner } from "./item-access.server";
import { getPlanInForce } from "./plans.server";
import { presentViewableItem, type ViewableItemDto } from "./scenes.server";

/**
 * What a viewer needs to show an item (SPEC §7 GET /item/{id}/viewer, and the /embed/{id} page): the model's
 * URLs, its viewer settings (migrated), its annotations in tour order, and whether the watermark shows.
 */
async function viewerParts(item: ItemWithOwner, signedOutReader: boolean) {
  const [annotations, plan] = await Promise.all([
    listAnnotations({ itemId: item.id, signedOutReader }),
    getPlanInForce({ userId: item.ownerId, signedOutReader }),
  ]);
  return { annotations, watermark: watermarkShown(item, plan) };
}

/** The /v1 answer: the same for everyone who may see the item (no owner-only fields), with absolute URLs. */
export async function getViewerConfig({ itemId, viewerId }: { itemId: string; viewerId: string | null }) {
  const item = await getVisibleItem({ itemId, viewerId });
  const dto = await presentViewableItem(item, null);
  const { annotations, watermark } = await viewerParts(item, viewerId === null);
  const appUrl = env().APP_URL;
  const absolute = (path: string | null) => (path ? new URL(path, appUrl).toString() : null);
  return {
    item: {
      id: dto.id,
      name: dto.name,
      description: dto.description,
      status: dto.status,
      visibility: dto.visibility,
      kind: dto.kind,
      model_type: dto.model_type,
      file_format: dto.file_format,
      file_size: dto.file_size,
      is_preview: dto.is_preview,
      owner: dto.owner,
      updated_at: dto.updated_at,
    },
    model_url: absolute(dto.model_url),
    // A scene's models (the Builder): each part's file URL and its transform (position, quaternion x y z w, scale).
    scene_parts: dto.scene_parts?.map((part) => ({ ...part, url: absolute(part.url)!, thumbnail_url: absolute(part.thumbnail_url) })) ?? null,
    thumbnail_url: absolute(dto.thumbnail_url),
    page_url: shareUrl(appUrl, item.id),
    embed_url: embedUrl(appUrl, item.id),
    settings: dto.settings,
    watermark,
    annotations: annotations.map((a) => ({ ...a, image_url: absolute(a.image_url) })),
  };
}
export type ViewerConfig = Awaited<ReturnType<typeof getViewerConfig>>;

export type EmbedView =
  | { state: "unavailable" }
  | { state: "poster"; item: ViewableItemDto; reason: "not_ready" | "embed_inactive" }
  | { state: "live"; item: ViewableItemDto; annotations: AnnotationDto[]; watermark: boolean };

/**
 * The /embed/{id} page. It shows what any visitor may see — public and unlisted models — whoever is signed in,
 * so an embed looks the same on every site; anything else is "unavailable" (private and unknown look alike).
 * A registered embed beyond the plan, or revoked, shows the poster; so does a model without its file yet.
 */
export async function getEmbedView({ itemId, embedId }: { itemId: string; embedId: string | null }): Promise<EmbedView> {
  let item: ItemWithOwner;
  try {
    item = await getVisibleItem({ itemId, viewerId: null });
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") return { state: "unavailable" };
    throw error;
  }
  const dto = await presentViewableItem(item, null);
  if (embedId && (await resolveRegisteredEmbed({ itemId, ownerId: item.ownerId, embedId })) === "poster") {
    return { state: "poster", item: dto, reason: "embed_inactive" };
  }
  if (!hasSomethingToView(dto)) return { state: "poster", item: dto, reason: "not_ready" };
  return { state: "live", item: dto, ...(await viewerParts(item, true)) };
}
