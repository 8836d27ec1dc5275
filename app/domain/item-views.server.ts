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
/**
 * Counts one view of an item page (the caller has checked that the viewer is not its owner, and that the request is
 * not the web process's own: app/lib/self-requests.server.ts, `countsNoView`).
 */
export function countItemView(itemId: string): void {
  pending.set(itemId, (pending.get(itemId) ?? 0) + 1);
  schedule();
}

/** A flush a second from now, unless one is due. */
function schedule(): void {
  if (timer) return;
  timer = setTimeout(() => {
    timer = null;
    void flushItemViews();
  }, VIEW_FLUSH_MS);
  timer.unref();
}

/**
 * Adds the views counted so far to their items. A failed statement adds nothing, so its views wait for the
 * next flush instead of being lost (the load bench's two web processes once deadlocked here: 40P01, 21
 * items' views gone).
 */
export async function flushItemViews(): Promise<void> {
  if (pending.size === 0) return;
  const views = new Map(pending);
  pending.clear();
  try {
    await addItemViews(views);
  } catch (error) {
    for (const [id, n] of views) pending.set(id, (pending.get(id) ?? 0) + n);
    schedule();
    logger.warn("item views could not be added; they are tried again with the next ones", { items: views.size, error: String(error) });
  }
}

/**
 * One UPDATE for many items' views (public and unlisted ones, not unpublished). The rows are locked first,
 * in id order: web processes adding views to the same items at once then wait for each other, where an
 * UPDATE … FROM locks rows in whatever order its join gives and two of them can deadlock.
 */
export async function addItemViews(views: Map<string, number>): Promise<void> {
  const ids = [...views.keys()];
  const counts = ids.map((id) => views.get(id)!);
  await db().$executeRaw`
    WITH v AS (SELECT unnest(${ids}::uuid[]) AS id, unnest(${counts}::int[]) AS n),
    locked AS MATERIALIZED (
      SELECT i.id FROM "Item" AS i JOIN v ON v.id = i.id
      WHERE i.visibility IN ('public', 'unlisted') AND i."unpublishedAt" IS NULL
      ORDER BY i.id
      FOR UPDATE OF i
    )
    UPDATE "Item" AS i SET "viewCount" = i."viewCount" + v.n
    FROM v JOIN locked ON locked.id = v.id
    WHERE i.id = v.id`;
}
