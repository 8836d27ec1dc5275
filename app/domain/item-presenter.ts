import { presentArLinks } from "./ar-model";
import { coarseObject, deliveredObject } from "./delivery-copy";
import type { ItemWithOwner } from "./item-access.server";
import { publicDisplayName } from "./public-name";
import { presentTurntable } from "./turntable-presenter";
import { migrateViewerSettings } from "./viewer-settings";

/** The API's view of an item (snake_case, SPEC §3). Read models live here, not in routes. */
export function presentItem(item: ItemWithOwner, viewerId: string | null) {
  const isOwner = viewerId === item.ownerId;
  const settings = migrateViewerSettings(item.settings, item.settingsVersion);
  return {
    id: item.id,
    name: item.name,
    // "model" (one file) or "scene" (several of the owner's models placed in the Builder; see scene_parts).
    kind: item.kind,
    description: item.description,
    model_type: item.modelType,
    upload_type: item.uploadType,
    status: item.status,
    status_detail: item.statusDetail,
    progress: item.progress,
    visibility: item.visibility,
    file_format: item.fileFormat,
    file_size: item.fileSize === null ? null : Number(item.fileSize),
    model_url: item.fileKey ? `/v1/item/${item.id}/file` : null,
    // What model_url serves: the compact delivery copy's format (e.g. "sog") once it exists, else file_format.
    delivered_format: deliveredObject(item)?.format ?? null,
    // A coarse level of what model_url serves (a tenth of a large splat's splats), shown first by viewers; null for small splats.
    model_coarse_url: coarseObject(item) ? `/v1/item/${item.id}/file?variant=coarse` : null,
    // The file as uploaded or scanned, for its owner (viewers get the delivery copy).
    original_url: isOwner && item.fileKey ? `/v1/item/${item.id}/file?original=true` : null,
    // A scan's textured mesh (GLB) and its light level for AR and product pages, for whoever sees the item.
    mesh_url: item.meshKey ? `/v1/item/${item.id}/file?variant=mesh` : null,
    mesh_lite_url: item.meshLiteKey ? `/v1/item/${item.id}/file?variant=mesh_lite` : null,
    // Plain files for "View in your space" (made on the server at the model's real-world scale): a USDZ for AR
    // Quick Look and a GLB for Scene Viewer; null when there is no mesh to place.
    ar: presentArLinks(item, settings.meters_per_unit),
    // ?v= names the image version, so a new thumbnail is never hidden by a cached one.
    thumbnail_url: item.thumbnailKey ? `/v1/item/${item.id}/thumbnail?v=${item.thumbnailKey.split("/").pop()}` : null,
    is_preview: item.isPreview,
    // A video of the model going once around, made on the owner's request (POST /v1/item/{id}/turntable).
    turntable: presentTurntable(item, isOwner),
    category_id: item.categoryId,
    // Lowercase, as stored (app/domain/item-details.ts); search matches them whole.
    tags: item.tags,
    // One of all_rights_reserved, cc_by, cc_by_sa, cc_by_nc, cc0: what others may do with the model.
    license: item.license,
    view_count: item.viewCount,
    // Featured by an admin: listed first on Explore and the front door.
    is_featured: item.featuredAt !== null,
    is_watermark_enabled: item.isWatermarkEnabled,
    // Whether others who see it may download its files (GET /v1/item/{id}/downloads).
    allow_downloads: item.allowDownloads,
    settings,
    owner: { id: item.owner.id, display_name: publicDisplayName(item.owner) },
    is_owner: isOwner,
    moderation_reason: isOwner ? item.moderationReason : null,
    created_at: item.createdAt.toISOString(),
    updated_at: item.updatedAt.toISOString(),
  };
}
export type ItemDto = ReturnType<typeof presentItem>;

/** Whether there is anything to show in a viewer: a model file, or a scene with parts. */
export function hasSomethingToView(item: { model_url: string | null; scene_parts?: readonly unknown[] | null }): boolean {
  return !!item.model_url || (item.scene_parts?.length ?? 0) > 0;
}

/**
 * Whether the viewer must send the owner's token to download this item's model: a private model (or one whose
 * visibility is unknown) and the owner's original file do; public and unlisted models download without one, so
 * their download may start before the sign-in state is known, or with the page's HTML (decision 035).
 */
export function modelDownloadNeedsToken(item: { visibility?: string | null }, { original = false }: { original?: boolean } = {}): boolean {
  return original || (item.visibility !== "public" && item.visibility !== "unlisted");
}
