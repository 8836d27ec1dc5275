import { db } from "~/db.server";
import { notFound } from "~/lib/errors";
import { applyViewerSettingsPatch, migrateViewerSettings, storedViewerSettings, type ViewerSettingsPatch } from "./viewer-settings";

/**
 * PATCH /v1/item/{id}/settings (SPEC §7): merges a validated patch into the item's viewer settings. Read,
 * migrated and written under the item's row lock, so two patches of different fields both land.
 */
export async function updateItemSettings({ itemId, ownerId, patch }: { itemId: string; ownerId: string; patch: ViewerSettingsPatch }) {
  return db().$transaction(async (tx) => {
    const rows = await tx.$queryRaw<Array<{ settings: unknown; settingsVersion: number | null }>>`
      SELECT settings, "settingsVersion" FROM "Item" WHERE id = ${itemId}::uuid AND "ownerId" = ${ownerId}::uuid FOR UPDATE`;
    const row = rows[0];
    if (!row) throw notFound();
    const next = applyViewerSettingsPatch(migrateViewerSettings(row.settings, row.settingsVersion), patch);
    await tx.item.update({ where: { id: itemId }, data: storedViewerSettings(next) });
    return next;
  });
}
