import type { Item, ItemVersion } from "~/db.server";

/** The API's view of one saved version of an item's file (the splat editor's versions list). */
export interface ItemVersionDto {
  id: string;
  number: number;
  label: string;
  format: string;
  size: number | null;
  splat_count: number | null;
  created_at: string;
  is_current: boolean;
}

export function presentItemVersion(version: ItemVersion, item: Pick<Item, "fileKey">): ItemVersionDto {
  return {
    id: version.id,
    number: version.number ?? 0,
    label: version.label,
    format: version.fileFormat,
    size: version.fileSize === null ? null : Number(version.fileSize),
    splat_count: version.splatCount,
    created_at: version.createdAt.toISOString(),
    is_current: version.fileKey === item.fileKey,
  };
}
