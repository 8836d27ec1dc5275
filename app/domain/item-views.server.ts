import { db } from "~/db.server";
import { logger } from "~/lib/logger.server";

/**
 * Views of model pages (docs/decisions/045-shared-page-cache.md): counted in memory and added to the items
 * once a second, one UPDATE for all the views of that second, instead of one UPDATE per page load (a popular
 * model's row was written by every visitor at once). The shared page cache counts the copies it gives out
 * here too. A process killed outright loses at most the last second's views; a clean stop adds them first.
 */
export const VIEW_FLUSH_MS = 1000;
const pending = new Map<string, number>();
let timer: NodeJS.Timeout | null = null;

/** Counts one view of an item page (the caller has checked that the viewer is not its owner). */
export function countItemView(itemId: string): void {
  pending.set(itemId, (pending.get(itemId) ?? 0) + 1);
  if (!timer) {
    timer = setTimeout(() => {
      timer = null;
      void flushItemViews();
    }, VIEW_FLUSH_MS);
    timer.unref();
  }
}

/** Adds the views counted so far to their items (public and unlisted ones, not unpublished). */
export async function flushItemViews(): Promise<void> {
  if (pending.size === 0) return;
  const ids = [...pending.keys()];
  const counts = ids.map((id) => pending.get(id)!);
  pending.clear();
  try {
    await db().$executeRaw`
      UPDATE "Item" AS i SET "viewCount" = i."viewCount" + v.n
      FROM (SELECT unnest(${ids}::uuid[]) AS id, unnest(${counts}::int[]) AS n) AS v
      WHERE i.id = v.id AND i.visibility IN ('public', 'unlisted') AND i."unpublishedAt" IS NULL`;
  } catch (error) {
    logger.warn("item views could not be added; they are lost", { items: ids.length, error: String(error) });
  }
}
